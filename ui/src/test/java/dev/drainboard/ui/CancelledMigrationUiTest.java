package dev.drainboard.ui;

import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.ops.VmiOps;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.HistoryRow;
import dev.drainboard.ui.model.MigrationRow;
import dev.drainboard.ui.shell.ViewId;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static dev.drainboard.ui.UiSteps.WAIT;
import static dev.drainboard.ui.UiSteps.toasts;
import static dev.drainboard.ui.UiSteps.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A migration cancelled from the Migrations view: its VMIM is deleted, yet the row stays, Cancelled, among the
 * finished ones; the History view (Ctrl+9) lists the cancel, read back from the cluster.
 */
@ExtendWith(ApplicationExtension.class)
class CancelledMigrationUiTest {

    private Console console;
    private TestConsole window;

    @Start
    void start(Stage stage) {
        window = TestConsole.show(stage);
        console = window.console();
    }

    @AfterEach
    void tearDown() throws BackingStoreException {
        window.close();
    }

    @Test
    void aCancelledMigrationStaysInTheListAndIsInTheHistory(FxRobot robot) {
        Session session = UiSteps.connect(robot, console);
        await().atMost(WAIT).until(() -> fx(() -> session.model().vmis().stream()
                .anyMatch(v -> v.name().equals("cache") && v.phase().equals("Running"))));
        ScreenshotsTest.slowLinks(session.client()); // the migration stays in flight until it is cancelled
        String name = new VmiOps(session.client()).migrate("demo", "cache").name();
        await().atMost(WAIT).until(() -> fx(() -> row(session, name) != null && row(session, name).phase().equals("Running")));

        robot.press(KeyCode.CONTROL, KeyCode.DIGIT4).release(KeyCode.DIGIT4, KeyCode.CONTROL);
        fx(() -> {
            console.shellProperty().get().reveal(row(session, name).ref());
            return null;
        });
        TableView<MigrationRow> table = robot.lookup("#migrationsTable").queryTableView();
        await().atMost(WAIT).until(() -> fx(() -> table.getSelectionModel().getSelectedItem() != null
                && table.getSelectionModel().getSelectedItem().name().equals(name)));
        robot.press(KeyCode.X).release(KeyCode.X);
        await().atMost(WAIT).until(() -> visible(robot, "#confirmCancelMigration"));
        robot.clickOn("#confirmOk");

        await().atMost(WAIT).until(() -> session.client().resources(VirtualMachineInstanceMigration.class)
                .inNamespace("demo").withName(name).get() == null);
        await().atMost(WAIT).until(() -> toasts(console).stream().anyMatch(t -> t.tone() == Badge.Tone.SUCCESS
                && t.title().equals("Migration " + name + " cancelled")));
        // Gone from the API, still in the list: Cancelled, finished, with why.
        await().atMost(WAIT).untilAsserted(() -> assertThat(fx(() -> table.getItems().stream()
                .filter(m -> m.name().equals(name)).findFirst().orElse(null))).isNotNull()
                .satisfies(m -> {
                    assertThat(m.phase()).isEqualTo(MigrationRow.CANCELLED);
                    assertThat(m.finished()).isTrue();
                    assertThat(m.until()).isNotNull();
                    assertThat(m.failureReason()).isNotEmpty();
                }));
        robot.clickOn("#migrationsFinished");
        assertThat(fx(() -> table.getItems().stream().anyMatch(m -> m.name().equals(name)))).isTrue();
        assertThat(fx(() -> table.getItems().stream().anyMatch(m -> !m.finished()))).isFalse();

        robot.press(KeyCode.CONTROL, KeyCode.DIGIT9).release(KeyCode.DIGIT9, KeyCode.CONTROL);
        assertThat(fx(() -> console.shellProperty().get().current())).isEqualTo(ViewId.HISTORY);
        TableView<HistoryRow> history = robot.lookup("#historyTable").queryTableView();
        await().atMost(WAIT).untilAsserted(() -> assertThat(fx(() -> history.getItems().stream()
                .filter(r -> r.kind().equals("MigrationCancel")).findFirst().orElse(null))).isNotNull()
                .satisfies(r -> {
                    assertThat(r.result()).isEqualTo("Cancelled");
                    assertThat(r.migrations()).singleElement().satisfies(m -> {
                        assertThat(m.name()).isEqualTo(name);
                        assertThat(m.vmi()).isEqualTo("cache");
                        assertThat(m.phase()).isEqualTo("Cancelled");
                        assertThat(m.reason()).startsWith("cancelled by ");
                    });
                    assertThat(r.title()).startsWith("Cancelled migration of demo/cache");
                }));
        assertThat(visible(robot, "#historyNotice")).isFalse();
    }

    private static MigrationRow row(Session session, String name) {
        return session.model().migrations().stream().filter(m -> m.name().equals(name)).findFirst().orElse(null);
    }
}
