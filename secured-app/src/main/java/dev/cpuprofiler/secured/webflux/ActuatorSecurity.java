package dev.cpuprofiler.secured.webflux;

import static org.springframework.security.config.Customizer.withDefaults;

import org.springframework.boot.security.autoconfigure.actuate.web.reactive.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.web.server.SecurityWebFilterChain;

@Configuration(proxyBeanMethods = false)
class ActuatorSecurity {

    @Bean
    SecurityWebFilterChain securityWebFilterChain(ServerHttpSecurity http) {
        return http
                .authorizeExchange(exchanges -> exchanges
                        .matchers(EndpointRequest.to("health")).permitAll()
                        .matchers(EndpointRequest.toAnyEndpoint()).hasRole("OPERATOR")
                        .anyExchange().authenticated())  // or your application's own rules
                .formLogin(withDefaults())               // the status page in a browser
                .httpBasic(withDefaults())               // curl -u
                .build();                                // CSRF protection stays on
    }
}
