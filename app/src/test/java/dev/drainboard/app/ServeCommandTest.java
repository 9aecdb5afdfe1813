package dev.drainboard.app;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code drainboard serve}'s options refused before anything starts. */
class ServeCommandTest {

    @Test
    void aKubeVirtVersionThatNamesNoReleaseExitsTwoAndStartsNothing() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = new CommandLine(new ServeCommand());
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));

        int code = commandLine.execute("--kubevirt-version", "latest", "--port", "0");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("drainboard serve: --kubevirt-version must name a KubeVirt release such as v1.6.0, got 'latest'");
        assertThat(out.toString()).doesNotContain("ready");
    }
}
