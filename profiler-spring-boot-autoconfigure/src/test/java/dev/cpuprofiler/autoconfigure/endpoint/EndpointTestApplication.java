package dev.cpuprofiler.autoconfigure.endpoint;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A minimal web application with the actuator and the profiler, for tests over real HTTP. */
@SpringBootApplication
public class EndpointTestApplication {
}
