package dev.cpuprofiler.autoconfigure.endpoint;

import java.util.Objects;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvoker;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvokerAdvisor;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameters;

/**
 * Hands the bare {@code POST /actuator/cpuprofiler?duration=5s} (no body, no {@code Content-Type}, as
 * {@code curl -X POST} sends it) its {@code duration}: Actuator maps it only to the operation without parameters,
 * {@link CpuProfilerEndpoint#startWithDefaults()}, which would drop it; its invoker calls
 * {@link CpuProfilerEndpoint#start(String)} instead, with the query string's.
 */
public class CpuProfilerBarePostAdvisor implements OperationInvokerAdvisor {

    private final ObjectProvider<CpuProfilerEndpoint> endpoint;

    public CpuProfilerBarePostAdvisor(ObjectProvider<CpuProfilerEndpoint> endpoint) {
        this.endpoint = endpoint;
    }

    @Override
    public OperationInvoker apply(EndpointId endpointId, OperationType operationType, OperationParameters parameters,
            OperationInvoker invoker) {
        if (!endpointId.equals(EndpointId.of(CpuProfilerEndpoint.ID)) || operationType != OperationType.WRITE
                || parameters.hasParameters()) {
            return invoker;
        }
        return context -> {
            CpuProfilerEndpoint target = endpoint.getIfUnique();
            return target == null ? invoker.invoke(context)
                    : target.start(Objects.toString(context.getArguments().get("duration"), null));
        };
    }
}
