package dev.drainboard.app;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The packaged {@code ./drainboard} (the console) started where there is no display, as over ssh without X. */
@DisplayName("./drainboard without a display")
class NoDisplayIT {

    @TempDir
    Path home;

    @Test
    @DisplayName("prints one line saying what is missing and exits 1")
    void saysWhatIsMissingAndExitsOne() throws Exception {
        assumeTrue(!System.getProperty("os.name").startsWith("Windows") && !System.getProperty("os.name").startsWith("Mac"),
                "a display is what GTK needs (Linux, BSD)");
        String launcher = System.getProperty("drainboard.launcher");
        assumeTrue(launcher != null, "run through maven-failsafe, which names the ./drainboard launcher");
        ProcessBuilder builder = new ProcessBuilder(List.of(launcher));
        builder.environment().remove("DISPLAY");
        builder.environment().remove("WAYLAND_DISPLAY");
        builder.environment().remove("DRAINBOARD_JAVA_OPTS");
        builder.environment().put("HOME", home.toString());
        Process console = builder.start();
        assertThat(console.waitFor(60, TimeUnit.SECONDS)).as("ended").isTrue();
        String stdout = new String(console.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String stderr = new String(console.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(console.exitValue()).as("exit code; stderr:\n" + stderr).isEqualTo(1);
        assertThat(stderr.lines().toList()).containsExactly("drainboard: the console needs a display "
                + "(DISPLAY or WAYLAND_DISPLAY is not set); for the command line see ./drainboard --help");
        assertThat(stdout).isEmpty();
    }
}
