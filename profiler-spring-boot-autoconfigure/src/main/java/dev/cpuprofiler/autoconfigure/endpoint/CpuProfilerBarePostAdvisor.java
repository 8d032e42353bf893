package dev.cpuprofiler.autoconfigure.endpoint;

import java.util.Objects;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvoker;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvokerAdvisor;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameters;

/**
 * Gives the bare {@code POST /actuator/cpuprofiler} (no body, no {@code Content-Type}, as {@code curl -X POST} sends)
 * what the JSON one gets: {@code duration} from the query string and an answer in the format the {@code Accept}
 * header asks for. Actuator maps it only to an operation without parameters,
 * {@link CpuProfilerEndpoint#startWithDefaults()}, which is given neither; both are in the {@code InvocationContext}
 * that reaches its invoker, which this advisor replaces with a call to
 * {@link CpuProfilerEndpoint#start(String, ResponseFormat)}.
 */
public class CpuProfilerBarePostAdvisor implements OperationInvokerAdvisor {

    private static final EndpointId ENDPOINT_ID = EndpointId.of(CpuProfilerEndpoint.ID);

    private final ObjectProvider<CpuProfilerEndpoint> endpoint;

    public CpuProfilerBarePostAdvisor(ObjectProvider<CpuProfilerEndpoint> endpoint) {
        this.endpoint = endpoint;
    }

    @Override
    public OperationInvoker apply(EndpointId endpointId, OperationType operationType, OperationParameters parameters,
            OperationInvoker invoker) {
        if (!ENDPOINT_ID.equals(endpointId) || operationType != OperationType.WRITE || parameters.hasParameters()) {
            return invoker;
        }
        return context -> {
            CpuProfilerEndpoint target = endpoint.getIfUnique();
            if (target == null) {
                return invoker.invoke(context);
            }
            return target.start(Objects.toString(context.getArguments().get("duration"), null),
                    context.resolveArgument(ResponseFormat.class));
        };
    }
}
