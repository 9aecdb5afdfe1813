package dev.drainboard.app;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code drainboard} without arguments opens the console without building picocli's model ({@link Main#run}); it must
 * open it exactly as picocli would: the root command's defaults, which these are.
 */
class DrainboardCommandTest {

    @Test
    void noArgumentsGiveTheDefaultsMainOpensTheConsoleWith() {
        DrainboardCommand command = new DrainboardCommand();
        CommandLine.ParseResult parsed = new CommandLine(command).parseArgs();

        assertThat(parsed.subcommand()).isNull();
        assertThat(command.scenario).isEqualTo(DrainboardCommand.DEFAULT_SCENARIO).isEqualTo("demo");
        assertThat(command.webhookHost).isNull();
        // No CA file: the webhook answers anyone (UiCommand.webhookCallers), as Main passes.
        assertThat(command.webhookClientCa).isNull();
        // Every root option is one of these three (plus --help and --version): a new one needs a default in Main too.
        assertThat(new CommandLine(new DrainboardCommand()).getCommandSpec().options().stream()
                .map(o -> o.longestName()).toList())
                .containsExactlyInAnyOrder("--scenario", "--webhook-host", "--webhook-client-ca", "--help", "--version");
    }
}
