package dev.cpuprofiler.autoconfigure.endpoint;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * A minimal web application with the actuator and the profiler, for tests over real HTTP. No component scan: it
 * would pick up this package's main classes too (the starter's own beans), which a user's application never scans,
 * and the tests would no longer show what the auto-configuration provides.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class EndpointTestApplication {
}
