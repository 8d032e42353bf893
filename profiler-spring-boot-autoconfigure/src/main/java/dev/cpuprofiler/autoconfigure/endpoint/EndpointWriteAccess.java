package dev.cpuprofiler.autoconfigure.endpoint;

import java.util.function.BooleanSupplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;

/**
 * Whether the endpoint's write operation ({@code POST}, an on-demand profile) is reachable: its access as Actuator
 * resolves it ({@code management.endpoint.cpuprofiler.access}, capped by {@code management.endpoints.access
 * .max-permitted}) is {@code unrestricted}. Asked when the status page is drawn, so it offers its button only when the
 * click would work.
 */
final class EndpointWriteAccess implements BooleanSupplier {

    private static final EndpointId ENDPOINT_ID = EndpointId.of(CpuProfilerEndpoint.ID);

    private final ObjectProvider<EndpointAccessResolver> resolver;

    EndpointWriteAccess(ObjectProvider<EndpointAccessResolver> resolver) {
        this.resolver = resolver;
    }

    @Override
    public boolean getAsBoolean() {
        EndpointAccessResolver r = resolver.getIfAvailable();
        return r != null && r.accessFor(ENDPOINT_ID, Access.READ_ONLY) == Access.UNRESTRICTED;
    }
}
