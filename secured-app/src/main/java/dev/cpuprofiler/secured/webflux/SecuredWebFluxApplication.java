package dev.cpuprofiler.secured.webflux;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.csrf.CookieServerCsrfTokenRepository;

/**
 * The WebFlux twin of {@code SecuredMvcApplication}: docs/security.md's reactive recipe ({@link ActuatorSecurity}), the
 * same two users, the same switch to the cookie token repository. Run with
 * {@code spring.main.web-application-type=reactive}, as Spring MVC is on the class path too.
 */
@SpringBootApplication
public class SecuredWebFluxApplication {

    public static void main(String[] args) {
        new SpringApplicationBuilder(SecuredWebFluxApplication.class).web(WebApplicationType.REACTIVE).run(args);
    }

    @Bean
    MapReactiveUserDetailsService users() {
        return new MapReactiveUserDetailsService(
                User.withUsername("operator").password("{noop}operator-password").roles("OPERATOR").build(),
                User.withUsername("viewer").password("{noop}viewer-password").roles("VIEWER").build());
    }

    @Bean
    @ConditionalOnProperty(name = "secured.csrf-token-repository", havingValue = "cookie")
    Customizer<ServerHttpSecurity.CsrfSpec> cookieCsrfTokenRepository() {
        return csrf -> csrf.csrfTokenRepository(CookieServerCsrfTokenRepository.withHttpOnlyFalse());
    }
}
