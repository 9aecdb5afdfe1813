package dev.drainboard.ui;

import dev.drainboard.ops.VmiOps;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.MigrationRow;
import dev.drainboard.ui.model.NodeRow;
import dev.drainboard.ui.model.PdbRow;
import dev.drainboard.ui.model.VmiRow;
import dev.drainboard.ui.shell.ViewId;
import javafx.scene.Node;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.time.Duration;
import java.util.List;
import java.util.prefs.BackingStoreException;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The details pane's "Related" links on the demo cluster after a real migration of "web-frontend": VMI → node, VMI →
 * launcher pod (shown in place, with the way back), VMI → PDB, VMI → VMIM, and the migrations table's progress.
 */
@ExtendWith(ApplicationExtension.class)
class RelatedObjectsUiTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

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
    void relatedLinksLeadFromAVmiToItsNodePodPdbAndMigration(FxRobot robot) {
        Session session = connect(robot);
        await().atMost(TIMEOUT).until(() -> fx(() -> session.model().vmis().stream()
                .anyMatch(v -> v.name().equals("web-frontend") && v.phase().equals("Running"))));
        String migration = new VmiOps(session.client()).migrate("demo", "web-frontend").name();
        await().atMost(TIMEOUT).until(() -> fx(() -> session.model().migrations().stream()
                .anyMatch(m -> m.name().equals(migration) && m.phase().equals("Succeeded"))));
        VmiRow web = fx(() -> session.model().vmis().stream().filter(v -> v.name().equals("web-frontend")).findFirst().orElseThrow());
        await().atMost(TIMEOUT).until(() -> fx(() -> session.model().launcherPods().stream()
                .anyMatch(p -> p.vmi().equals("web-frontend") && p.node().equals(web.node()))));

        // VMI → its node: the Nodes view opens with the node selected.
        openVmi(robot, "web-frontend");
        String node = fx(() -> session.model().vmis().stream().filter(v -> v.name().equals("web-frontend"))
                .findFirst().orElseThrow().node());
        robot.clickOn(link(robot, node));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> console.shellProperty().get().current())).isEqualTo(ViewId.NODES);
        TableView<NodeRow> nodes = robot.lookup("#nodesTable").queryTableView();
        assertThat(fx(() -> nodes.getSelectionModel().getSelectedItem().name())).isEqualTo(node);

        // VMI → its launcher pod on that node: shown in place, then back to the VMI.
        openVmi(robot, "web-frontend");
        String pod = fx(() -> session.model().launcherPods().stream()
                .filter(p -> p.vmi().equals("web-frontend") && p.node().equals(node)).findFirst().orElseThrow().name());
        robot.clickOn(link(robot, pod));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(detailsTitle(robot)).isEqualTo("demo/" + pod);
        assertThat(fx(() -> console.shellProperty().get().current())).isEqualTo(ViewId.VMIS);
        assertThat(linkTexts(robot)).contains("web-frontend", node);
        robot.clickOn("#detailsBack");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(detailsTitle(robot)).isEqualTo("demo/web-frontend");

        // VMI → the PDB that protects it.
        String pdb = fx(() -> session.model().vmis().stream().filter(v -> v.name().equals("web-frontend"))
                .findFirst().orElseThrow().pdbs());
        assertThat(pdb).isNotEmpty();
        robot.clickOn(link(robot, pdb));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> console.shellProperty().get().current())).isEqualTo(ViewId.PDBS);
        TableView<PdbRow> pdbs = robot.lookup("#pdbsTable").queryTableView();
        assertThat(fx(() -> pdbs.getSelectionModel().getSelectedItem().name())).isEqualTo(pdb);

        // VMI → its migration, whose row shows the finished transfer.
        openVmi(robot, "web-frontend");
        robot.clickOn(link(robot, migration));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> console.shellProperty().get().current())).isEqualTo(ViewId.MIGRATIONS);
        TableView<MigrationRow> migrations = robot.lookup("#migrationsTable").queryTableView();
        MigrationRow selected = fx(() -> migrations.getSelectionModel().getSelectedItem());
        assertThat(selected.name()).isEqualTo(migration);
        assertThat(selected.progress()).isNotNull();
        assertThat(selected.progress().fraction()).isEqualTo(1.0);
        // The table's cells are made at its next layout, which a loaded machine may not have reached yet.
        await().atMost(TIMEOUT).until(() -> fx(() -> robot.lookup(".progress-text").queryAllAs(Label.class).stream()
                .map(Label::getText).anyMatch(t -> t.startsWith("100% · ") && t.endsWith(" moved"))));
        // And back from the migration to the VMI.
        robot.clickOn(link(robot, "web-frontend"));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> console.shellProperty().get().current())).isEqualTo(ViewId.VMIS);
        assertThat(detailsTitle(robot)).isEqualTo("demo/web-frontend");
    }

    private Session connect(FxRobot robot) {
        robot.clickOn("#connectEmbedded");
        await().atMost(TIMEOUT).until(() -> fx(() -> console.sessionProperty().get() != null));
        Session session = fx(() -> console.sessionProperty().get());
        await().atMost(TIMEOUT).until(() -> fx(() -> session.model().synced().get()));
        return session;
    }

    private void openVmi(FxRobot robot, String name) {
        fx(() -> {
            var shell = console.shellProperty().get();
            shell.session().model().vmis().stream().filter(v -> v.name().equals(name)).findFirst()
                    .ifPresent(v -> shell.reveal(v.ref()));
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(detailsTitle(robot)).isEqualTo("demo/" + name);
    }

    /** The link, scrolled into the details pane's view so a click lands on it. */
    private static Node link(FxRobot robot, String text) {
        await().atMost(Duration.ofSeconds(10)).until(() -> fx(() -> findLink(robot, text) != null));
        return fx(() -> {
            Hyperlink link = findLink(robot, text);
            Node n = link;
            while (n != null && !(n instanceof javafx.scene.control.ScrollPane)) {
                n = n.getParent();
            }
            if (n instanceof javafx.scene.control.ScrollPane scroll) {
                Node content = scroll.getContent();
                double y = content.sceneToLocal(link.localToScene(0, 0)).getY();
                double room = content.getBoundsInLocal().getHeight() - scroll.getViewportBounds().getHeight();
                if (room > 0) {
                    scroll.setVvalue(Math.min(1, Math.max(0, (y - 20) / room)));
                }
                scroll.layout();
            }
            return link;
        });
    }

    private static Hyperlink findLink(FxRobot robot, String text) {
        return robot.lookup(".related-link").queryAllAs(Hyperlink.class).stream()
                .filter(h -> h.getText().equals(text) && h.getScene() != null && h.isVisible())
                .findFirst().orElse(null);
    }

    private static List<String> linkTexts(FxRobot robot) {
        return fx(() -> robot.lookup(".related-link").queryAllAs(Hyperlink.class).stream()
                .filter(h -> h.getScene() != null).map(Hyperlink::getText).toList());
    }

    private static String detailsTitle(FxRobot robot) {
        return fx(() -> robot.lookup(".details-title").queryAllAs(Label.class).stream()
                .filter(l -> l.getScene() != null && l.isVisible()).findFirst().orElseThrow().getText());
    }
}
