package dev.cpuprofiler.autoconfigure.endpoint;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvoker;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvokerAdvisor;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameters;

/**
 * Gives the bare {@code POST /actuator/cpuprofiler} (no body, no {@code Content-Type}, as {@code curl -X POST} sends)
 * what the JSON one gets: {@code duration} from the query string, and an answer in the format the {@code Accept}
 * header asks for.
 * <p>
 * Why: Actuator maps a write operation that has parameters only for a JSON {@code Content-Type} (any parameter makes
 * it consume a body), so the bare POST needs a second operation without parameters,
 * {@link CpuProfilerEndpoint#startWithDefaults()}; and an operation without parameters is given neither the request's
 * arguments nor its {@code Accept} header. Both are in the {@code InvocationContext} that reaches its invoker, which
 * this advisor replaces with a call to {@link CpuProfilerEndpoint#start(String, ResponseFormat)}. Without this advisor
 * the bare POST still works, with the default duration and a JSON answer.
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
            return target.start(text(context.getArguments().get("duration")),
                    context.resolveArgument(ResponseFormat.class));
        };
    }

    private static @Nullable String text(@Nullable Object value) {
        return value == null ? null : value.toString();
    }
}
