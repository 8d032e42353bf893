package dev.cpuprofiler.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The flame graph page ({@code format=html}) of a profile recorded by thread, of every thread or of one. */
class FlameGraphFormatTest {

    /** Sorted, the page codes this one's neighbour as sharing 28 characters with it: '<', then "/script>...". */
    private static final String HOSTILE = "P".repeat(27) + "/script><svg onload=alert(7)>";

    @Test
    void threadNamesInTheTitleAndTheGraphAddNoMarkup() {
        StackTree tree = new StackTree(64, 1000, true);
        tree.accept(List.of(Frame.java("app.Main.run")), "P".repeat(27) + "-x", 40);
        tree.accept(List.of(Frame.java("app.Main.run")), HOSTILE, 60);
        Profile p = ProfileBuilder.profile("p1", SessionTrigger.MANUAL, tree.snapshot()).build();

        String all = html(p, ProfileView.of(LookbackView.INCLUDE));
        String one = html(p, ProfileView.of(LookbackView.INCLUDE).ofThread(HOSTILE));

        assertThat(all).contains("100 samples)</h1>");
        assertThat(one).contains(": thread " + "P".repeat(27) + "/script&gt;&lt;svg onload=alert(7)&gt;</h1>");
        for (String page : List.of(all, one)) {
            assertThat(page.split("</script", -1).length - 1).as("script ends: the template's two").isEqualTo(2);
            assertThat(page).doesNotContain("<svg onload");
        }
    }

    private static String html(Profile p, ProfileView view) {
        assertThat(view.missing(p)).isEmpty();
        return new String(Written.bytes(ProfileFormat.HTML, p, view), StandardCharsets.UTF_8);
    }
}
