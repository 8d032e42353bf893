package dev.cpuprofiler.secured.mvc;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.CsrfConfigurer;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.csrf.CookieCsrfTokenRepository;

/**
 * A Spring MVC application secured by docs/security.md's recipe ({@link ActuatorSecurity}), with two users:
 * {@code operator} (role OPERATOR) and {@code viewer} (no role for the actuator).
 * {@code secured.csrf-token-repository=cookie} swaps Spring Security's default session token repository for the cookie
 * one that single-page applications use.
 */
@SpringBootApplication
public class SecuredMvcApplication {

    public static void main(String[] args) {
        SpringApplication.run(SecuredMvcApplication.class, args);
    }

    @Bean
    InMemoryUserDetailsManager users() {
        return new InMemoryUserDetailsManager(
                User.withUsername("operator").password("{noop}operator-password").roles("OPERATOR").build(),
                User.withUsername("viewer").password("{noop}viewer-password").roles("VIEWER").build());
    }

    @Bean
    @ConditionalOnProperty(name = "secured.csrf-token-repository", havingValue = "cookie")
    Customizer<CsrfConfigurer<HttpSecurity>> cookieCsrfTokenRepository() {
        return csrf -> csrf.csrfTokenRepository(CookieCsrfTokenRepository.withHttpOnlyFalse());
    }
}
