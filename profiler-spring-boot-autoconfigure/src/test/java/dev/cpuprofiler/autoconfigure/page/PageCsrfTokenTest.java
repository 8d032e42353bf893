package dev.cpuprofiler.autoconfigure.page;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.csrf.DefaultCsrfToken;

/** What the status page's answer carries of Spring Security's token: its header name and value, or nothing. */
class PageCsrfTokenTest {

    @Test
    void aServletOrReactiveTokenGivesTheHeaderNameAndTheValue() {
        HttpHeaders servlet = new HttpHeaders();
        PageCsrfToken.copy(new DefaultCsrfToken("X-CSRF-TOKEN", "_csrf", "masked-value"), servlet::set);
        assertThat(servlet.getFirst(PageCsrfToken.HEADER)).isEqualTo("X-CSRF-TOKEN");
        assertThat(servlet.getFirst(PageCsrfToken.TOKEN)).isEqualTo("masked-value");

        HttpHeaders reactive = new HttpHeaders();
        PageCsrfToken.copy(new org.springframework.security.web.server.csrf.DefaultCsrfToken("X-XSRF-TOKEN", "_csrf",
                "cookie-value"), reactive::set);
        assertThat(reactive.getFirst(PageCsrfToken.HEADER)).isEqualTo("X-XSRF-TOKEN");
        assertThat(reactive.getFirst(PageCsrfToken.TOKEN)).isEqualTo("cookie-value");
    }

    @Test
    void noTokenOrOneThatFailsToLoadGivesNothingAndDoesNotFailTheAnswer() {
        HttpHeaders headers = new HttpHeaders();
        PageCsrfToken.copy(null, headers::set);
        PageCsrfToken.copy("not a token", headers::set);
        PageCsrfToken.copy(new CsrfToken() {
            @Override
            public String getHeaderName() {
                return "X-CSRF-TOKEN";
            }

            @Override
            public String getParameterName() {
                return "_csrf";
            }

            @Override
            public String getToken() {
                throw new IllegalStateException("the session could not be created");
            }
        }, headers::set);
        assertThat(headers.getFirst(PageCsrfToken.HEADER)).isNull();
        assertThat(headers.getFirst(PageCsrfToken.TOKEN)).isNull();
    }
}
