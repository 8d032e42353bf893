package dev.cpuprofiler.secured;

import dev.cpuprofiler.secured.webflux.SecuredWebFluxApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

/** The WebFlux recipe of docs/security.md with Spring Security's cookie CSRF token repository. */
@SpringBootTest(classes = SecuredWebFluxApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.main.web-application-type=reactive",
            "secured.csrf-token-repository=cookie"
        })
@DirtiesContext
class WebFluxCookieTokenRepositoryTest extends SecuredPageInBrowserChecks {
}
