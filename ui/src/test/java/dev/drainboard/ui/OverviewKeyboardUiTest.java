package dev.drainboard.ui;

import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.NodeRow;
import dev.drainboard.ui.shell.ViewId;
import javafx.scene.Node;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static dev.drainboard.ui.UiSteps.WAIT;
import static dev.drainboard.ui.UiSteps.text;
import static dev.drainboard.ui.UiSteps.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The overview's node tiles without a mouse: focus, arrows, Tab, Enter, and the node actions' keys. */
@ExtendWith(ApplicationExtension.class)
class OverviewKeyboardUiTest {

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
    void tilesAreReachedMovedBetweenAndActedOnFromTheKeyboard(FxRobot robot) {
        Session session = UiSteps.connect(robot, console);
        await().atMost(WAIT).until(() -> fx(() -> robot.lookup("#nodeTiles").queryParent().getChildrenUnmodifiable().size() == 4));
        assertThat(fx(() -> console.shellProperty().get().current())).isEqualTo(ViewId.OVERVIEW);

        // Ctrl+F puts the focus on the first tile (the overview has no filter box).
        robot.press(KeyCode.CONTROL, KeyCode.F).release(KeyCode.F, KeyCode.CONTROL);
        await().atMost(WAIT).until(() -> "tile-node01".equals(focusedId()));

        key(robot, KeyCode.RIGHT);
        assertThat(focusedId()).isEqualTo("tile-node02");
        key(robot, KeyCode.END);
        assertThat(focusedId()).isEqualTo("tile-node04");
        key(robot, KeyCode.RIGHT);
        assertThat(focusedId()).as("the last tile stays focused").isEqualTo("tile-node04");
        key(robot, KeyCode.HOME);
        assertThat(focusedId()).isEqualTo("tile-node01");
        key(robot, KeyCode.LEFT);
        assertThat(focusedId()).isEqualTo("tile-node01");
        key(robot, KeyCode.TAB);
        assertThat(focusedId()).as("Tab walks the tiles in order").isEqualTo("tile-node02");
        key(robot, KeyCode.DOWN);
        assertThat(focusedId()).as("down goes to the row below when there is one").startsWith("tile-node0");

        // The node actions' keys act on the focused tile: C asks to cordon that node; Esc cancels.
        fx(() -> {
            robot.lookup("#tile-node03").query().requestFocus();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        key(robot, KeyCode.C);
        await().atMost(WAIT).until(() -> visible(robot, "#confirmCordon"));
        assertThat(text(robot, "#confirmMessage")).contains("node03");
        key(robot, KeyCode.ESCAPE);
        await().atMost(WAIT).until(() -> !visible(robot, "#confirmCordon"));
        UiSteps.awaitActionsAnswered(console);
        assertThat(session.client().nodes().withName("node03").get().getSpec().getUnschedulable()).isNotEqualTo(Boolean.TRUE);

        // Enter opens the focused node in the Nodes view, selected.
        fx(() -> {
            robot.lookup("#tile-node03").query().requestFocus();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        key(robot, KeyCode.ENTER);
        await().atMost(WAIT).until(() -> fx(() -> console.shellProperty().get().current()) == ViewId.NODES);
        assertThat(fx(() -> robot.lookup("#nodesTable").queryTableView().getSelectionModel().getSelectedItems()
                .stream().map(r -> ((NodeRow) r).name()).toList())).containsExactly("node03");
    }

    private static void key(FxRobot robot, KeyCode code) {
        robot.press(code).release(code);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private String focusedId() {
        return fx(() -> {
            Node owner = console.scene().getFocusOwner();
            return owner == null ? null : owner.getId();
        });
    }
}
