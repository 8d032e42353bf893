package dev.cpuprofiler.secured;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.fixtures.Chromium;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The status page's button in headless Chromium, behind docs/security.md's recipe: the operator logs in through
 * Spring Security's form, presses the button and sees the profile, after the cookie's token changed behind the page's
 * back (another tab, a new login), which the page heals by fetching the token again. Only the cookie repository's
 * applications run it: the page's script sends the token the status carried in both repositories (checked over HTTP
 * for each, {@link SecuredEndpointChecks}), and only with the cookie repository can the token change under the page,
 * so the session repository's browser run would repeat the first half of this one (each run costs a browser, about 10 s).
 */
abstract class SecuredPageInBrowserChecks extends SecuredEndpointChecks {

    @Test
    void inChromiumTheOperatorLogsInPressesTheButtonAndSeesTheProfile() throws Exception {
        String chromium = Chromium.browserOrSkip("SecuredPageInBrowserChecks (" + name() + ")");
        awaitNoSession();
        String pageUrl = "http://localhost:" + port + "/actuator/cpuprofiler";
        try (DevToolsPage page = DevToolsPage.open(chromium)) {
            page.navigate(pageUrl);
            assertThat(page.evaluate("location.pathname")).as("an anonymous browser is sent to log in")
                    .isEqualTo("/login");
            page.evaluate("document.getElementById('username').value = 'operator';"
                    + "document.getElementById('password').value = 'operator-password';"
                    + "document.getElementById('username').form.submit(); true");
            page.waitFor("the login to finish", "location.pathname", p -> !"/login".equals(p), Duration.ofSeconds(30));
            page.navigate(pageUrl);
            page.waitFor("the page's first drawing", "Number(document.body.getAttribute('data-refreshes'))",
                    n -> n instanceof Number r && r.intValue() >= 1, Duration.ofSeconds(30));
            assertThat(page.evaluate("document.getElementById('start-form').hidden")).as("the button is offered")
                    .isEqualTo(false);
            // Another tab (or a new login) has made Spring Security hold a newer token than the one the page got
            // with its last status: the POST is refused, and the page fetches the token again and retries.
            page.evaluate("document.cookie = 'XSRF-TOKEN=a-token-made-in-another-tab; path=/'; true");
            page.evaluate("document.getElementById('duration').value = '1';"
                    + "document.getElementById('start').click(); true");
            String result = Objects.toString(page.waitFor("the button's answer",
                    "document.getElementById('start-result').textContent",
                    t -> t instanceof String s && !s.isEmpty() && !s.startsWith("Starting"), Duration.ofSeconds(30)));
            assertThat(result).as("%s: what the page says after the button", name()).startsWith("Started ");
            String id = result.substring("Started ".length(), result.indexOf(" for "));
            page.waitFor("the profile in the page's list", "!!document.querySelector('#profiles a[href=\"cpuprofiler/"
                    + id + "?format=html\"]')", Boolean.TRUE::equals, Duration.ofSeconds(30));
            assertThat(profiler.profile(id)).as("recorded").isPresent();
            page.screenshot(Path.of("target", "secured-" + name() + ".png"));
        }
    }

}
