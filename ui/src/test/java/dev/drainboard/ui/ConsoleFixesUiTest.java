package dev.drainboard.ui;

import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.NodeRow;
import dev.drainboard.ui.model.ObjectRef;
import dev.drainboard.ui.shell.ViewId;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.BackgroundFill;
import javafx.scene.layout.CornerRadii;
import javafx.scene.layout.Pane;
import javafx.scene.layout.Region;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.util.List;
import java.util.Optional;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static dev.drainboard.ui.UiSteps.WAIT;
import static dev.drainboard.ui.UiSteps.visible;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** What the operator trial found wrong: the dark context menu, notices over rows, cut badges at 1280×720. */
@ExtendWith(ApplicationExtension.class)
class ConsoleFixesUiTest {

    private Console console;
    private TestConsole window;
    private Stage stage;
    private StageSize size;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        window = TestConsole.show(stage);
        console = window.console();
        size = StageSize.of(stage);
    }

    @AfterEach
    void tearDown() throws BackingStoreException {
        WaitForAsyncUtils.asyncFx(() -> Window.getWindows().stream().filter(w -> w instanceof ContextMenu)
                .map(w -> (ContextMenu) w).toList().forEach(ContextMenu::hide));
        window.close();
        fx(() -> { // TestFX shows every test class in the same stage: leave it as large as it was
            size.restore(stage);
            return null;
        });
    }

    @Test
    void theNodesContextMenuOffersUncordonOnACordonedNodeAndIsSquareInTheDarkTheme(FxRobot robot) {
        Session session = UiSteps.connect(robot, console);
        session.client().nodes().withName("node03").edit(n -> {
            n.getSpec().setUnschedulable(true);
            return n;
        });
        await().atMost(WAIT).until(() -> fx(() -> session.model().nodes().stream()
                .anyMatch(n -> n.name().equals("node03") && n.cordoned())));
        robot.clickOn("#themeToggle");
        await().atMost(WAIT).until(() -> fx(() -> console.theme().isDark()));

        List<String> cordoned = rightClickRow(robot, "node03");
        assertThat(cordoned).contains("menu-uncordon", "menu-drain").doesNotContain("menu-cordon");
        // Square and shadowless: nothing outside the menu's own rectangle for a window without a compositor to fill white.
        Region menu = fx(() -> (Region) openMenu().orElseThrow().getSkin().getNode());
        fx(() -> {
            menu.applyCss();
            return null;
        });
        assertThat(fx(() -> menu.getEffect())).isNull();
        assertThat(fx(() -> menu.getBackground().getFills().stream().map(BackgroundFill::getRadii).toList()))
                .isNotEmpty().allMatch(r -> r.equals(CornerRadii.EMPTY));
        fx(() -> {
            openMenu().orElseThrow().hide();
            return null;
        });
        await().atMost(WAIT).until(() -> openMenu().isEmpty());

        List<String> schedulable = rightClickRow(robot, "node01");
        assertThat(schedulable).contains("menu-cordon", "menu-drain").doesNotContain("menu-uncordon");
    }

    @Test
    void aNoticeTakesItsOwnLineAboveTheStatusBarAndGoesAwayByItself(FxRobot robot) {
        Session session = UiSteps.connect(robot, console);
        selectNode(robot, "node02");
        robot.press(KeyCode.C).release(KeyCode.C);
        await().atMost(WAIT).until(() -> visible(robot, "#confirmCordon"));
        robot.press(KeyCode.ENTER).release(KeyCode.ENTER);
        await().atMost(WAIT).until(() -> fx(() -> ((Pane) console.scene().lookup("#toasts")).getChildren().size()) == 1);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(UiSteps.toasts(console).getLast().title()).isEqualTo("Cordoned node02");

        // Below the table, not over it: no row is hidden by it.
        Bounds notice = fx(() -> { Node n = console.scene().lookup("#toasts"); return n.localToScene(n.getBoundsInLocal()); });
        Bounds table = fx(() -> { Node n = console.scene().lookup("#nodesTable"); return n.localToScene(n.getBoundsInLocal()); });
        assertThat(notice.getMinY()).isGreaterThanOrEqualTo(table.getMaxY() - 0.5);
        assertThat(notice.getWidth()).isGreaterThan(0);
        // The focus stays on the row acted on.
        TableView<?> nodes = robot.lookup("#nodesTable").queryTableView();
        await().atMost(WAIT).until(() -> fx(() -> console.scene().getFocusOwner() == nodes));

        await().atMost(WAIT).until(() -> fx(() -> ((Pane) console.scene().lookup("#toasts")).getChildren().isEmpty()));
        assertThat(fx(() -> console.scene().lookup("#toasts").isManaged())).as("no room kept once gone").isFalse();
        assertThat(session.client().nodes().withName("node02").get().getSpec().getUnschedulable()).isTrue();
    }

    @Test
    void theDrainDialogsOutcomeBadgesAreWholeAt1280x720(FxRobot robot) {
        fx(() -> {
            stage.setWidth(1280);
            stage.setHeight(720);
            return null;
        });
        UiSteps.connect(robot, console);
        selectNode(robot, "node01");
        robot.press(KeyCode.D).release(KeyCode.D);
        await().atMost(WAIT).until(() -> visible(robot, "#drainPreviewTable"));
        TableView<?> preview = robot.lookup("#drainPreviewTable").queryTableView();
        await().atMost(WAIT).until(() -> fx(() -> preview.getItems().size()) > 0);
        WaitForAsyncUtils.waitForFxEvents();
        List<Label> badges = fx(() -> preview.lookupAll(".badge").stream().filter(Node::isVisible).map(n -> (Label) n)
                .filter(l -> l.getText() != null && !l.getText().isEmpty()).toList());
        assertThat(fx(() -> badges.stream().map(Label::getText).toList())).contains("Needs Ignore DaemonSets");
        assertThat(fx(() -> badges.stream().filter(Label::isTextTruncated).map(Label::getText).toList())).isEmpty();
        robot.press(KeyCode.ESCAPE).release(KeyCode.ESCAPE);
    }

    private List<String> rightClickRow(FxRobot robot, String node) {
        selectNode(robot, node);
        TableRow<?> row = fx(() -> robot.lookup("#nodesTable").queryAs(TableView.class).lookupAll(".table-row-cell").stream()
                .map(n -> (TableRow<?>) n).filter(r -> r.getItem() instanceof NodeRow n && n.name().equals(node))
                .findFirst().orElseThrow());
        // What a right-click on the row (or the menu key) asks of the table; Monocle's robot sends no context-menu event.
        fx(() -> {
            Bounds b = row.localToScreen(row.getBoundsInLocal());
            Bounds local = row.getBoundsInLocal();
            javafx.event.Event.fireEvent(row, new javafx.scene.input.ContextMenuEvent(
                    javafx.scene.input.ContextMenuEvent.CONTEXT_MENU_REQUESTED, local.getCenterX(), local.getCenterY(),
                    b.getCenterX(), b.getCenterY(), false, null));
            return null;
        });
        await().atMost(WAIT).until(() -> openMenu().isPresent());
        return fx(() -> openMenu().orElseThrow().getItems().stream().map(MenuItem::getId).toList());
    }

    private static Optional<ContextMenu> openMenu() {
        return fx(() -> Window.getWindows().stream().filter(w -> w instanceof ContextMenu && w.isShowing())
                .map(w -> (ContextMenu) w).findFirst());
    }

    private void selectNode(FxRobot robot, String node) {
        fx(() -> {
            console.shellProperty().get().show(ViewId.NODES);
            console.shellProperty().get().reveal(ObjectRef.node(node));
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        fx(() -> {
            robot.lookup("#nodesTable").query().requestFocus();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
    }
}
