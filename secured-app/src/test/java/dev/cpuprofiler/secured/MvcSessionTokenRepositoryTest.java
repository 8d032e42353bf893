package dev.cpuprofiler.secured;

import dev.cpuprofiler.secured.mvc.SecuredMvcApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

/** The Spring MVC recipe of docs/security.md with Spring Security's session CSRF token repository (the default). */
@SpringBootTest(classes = SecuredMvcApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "secured.csrf-token-repository=session"
        })
@DirtiesContext
class MvcSessionTokenRepositoryTest extends SecuredEndpointChecks {
}
