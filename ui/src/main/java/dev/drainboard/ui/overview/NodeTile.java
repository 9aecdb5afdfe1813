package dev.drainboard.ui.overview;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.common.Icons;
import dev.drainboard.ui.model.NodeRow;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

/** One node on the overview: state, badges, load and the "safe to reboot?" answer. Updated in place. */
final class NodeTile extends VBox {

    private final Label name = new Label();
    private final Label readiness = Badge.of("", Badge.Tone.NEUTRAL);
    private final Label meta = new Label();
    private final FlowPane badges = new FlowPane(6, 6);
    private final Label vmis = new Label();
    private final Label pods = new Label();
    private final ProgressBar cpu = new ProgressBar();
    private final Label cpuText = new Label();
    private final ProgressBar memory = new ProgressBar();
    private final Label memoryText = new Label();
    private final Label reboot = new Label();
    private final Label pressure = new Label();
    private NodeRow row;

    NodeTile() {
        getStyleClass().add("node-tile");
        setSpacing(10);
        setPrefWidth(300);
        setMinWidth(300);
        setMaxWidth(300);
        name.getStyleClass().add("tile-name");
        name.setGraphic(Icons.icon(Material2AL.DNS, 18));
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox header = new HBox(8, name, spacer, readiness);
        header.setAlignment(Pos.CENTER_LEFT);
        meta.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        vmis.getStyleClass().add("tile-count");
        vmis.setGraphic(Icons.icon(Material2AL.COMPUTER, 16));
        pods.getStyleClass().add("tile-count");
        pods.setGraphic(Icons.icon(Material2AL.LAYERS, 16));
        HBox counts = new HBox(18, vmis, pods);
        counts.setAlignment(Pos.CENTER_LEFT);
        reboot.getStyleClass().add("tile-reboot");
        pressure.getStyleClass().add("tile-pressure");
        pressure.setGraphic(Icons.icon(Material2AL.ERROR_OUTLINE, 16));
        pressure.setWrapText(true);
        pressure.setMinHeight(Region.USE_PREF_SIZE);
        pressure.setVisible(false);
        pressure.setManaged(false);
        getChildren().addAll(header, meta, badges, counts, bar("CPU", cpu, cpuText), bar("Memory", memory, memoryText),
                pressure, reboot);
        // Keyboard: Tab and the arrow keys move between tiles (OverviewView), the node actions' keys act on this one.
        setFocusTraversable(true);
    }

    private static VBox bar(String title, ProgressBar bar, Label text) {
        Label label = new Label(title);
        label.getStyleClass().addAll(Styles.TEXT_SMALL, "bar-label");
        text.getStyleClass().addAll(Styles.TEXT_SMALL, Styles.TEXT_MUTED);
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox top = new HBox(label, spacer, text);
        bar.setMaxWidth(Double.MAX_VALUE);
        bar.getStyleClass().add(Styles.SMALL);
        return new VBox(4, top, bar);
    }

    void show(NodeRow r) {
        if (r == row) {
            return;
        }
        row = r;
        setId("tile-" + r.name());
        name.setText(r.name());
        readiness.setText(switch (r.readiness()) {
            case READY -> "Ready";
            case NOT_READY -> "NotReady";
            case UNKNOWN -> "Unknown";
        });
        Badge.style(readiness, r.readiness() == NodeRow.Readiness.READY ? Badge.Tone.SUCCESS : Badge.Tone.DANGER);
        meta.setText(r.roles() + (r.zone().isEmpty() ? "" : "  ·  " + r.zone()) + (r.version().isEmpty() ? "" : "  ·  " + r.version()));
        badges.getChildren().clear();
        if (r.cordoned()) {
            badges.getChildren().add(Badge.of("Cordoned", Badge.Tone.WARNING));
        }
        if (r.memoryPressure()) {
            Label badge = Badge.of("MemoryPressure", Badge.Tone.DANGER);
            badge.setId("pressure-" + r.name());
            badge.setGraphic(Icons.icon(Material2MZ.MEMORY, 14));
            Tooltip tip = new Tooltip("The kubelet reports MemoryPressure: it evicts pods to reclaim memory, ignoring "
                    + "PodDisruptionBudgets. With NodePressureEvictionLiveMigration on, KubeVirt live-migrates the "
                    + "evicted VMs before the kubelet's kill.");
            tip.setWrapText(true);
            tip.setMaxWidth(420);
            badge.setTooltip(tip);
            badges.getChildren().add(badge);
        }
        for (String taint : r.taints()) {
            if (!taint.startsWith("node.kubernetes.io/unschedulable")) {
                Label badge = Badge.of(tileText(taint), taint.startsWith("node.kubernetes.io/memory-pressure")
                        ? Badge.Tone.DANGER : Badge.Tone.ACCENT);
                // Whole even in the smallest window: a long taint goes on two lines (key, then value and effect).
                badge.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
                badge.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
                badge.setTooltip(new Tooltip(taint));
                badges.getChildren().add(badge);
            }
        }
        if (badges.getChildren().isEmpty()) {
            badges.getChildren().add(Badge.of("Schedulable", Badge.Tone.NEUTRAL));
        }
        vmis.setText(r.vmis() + (r.vmis() == 1 ? " VMI" : " VMIs"));
        pods.setText(r.pods() + (r.pods() == 1 ? " pod" : " pods"));
        cpu.setProgress(Formats.share(r.cpuRequestedMillis(), r.cpuAllocatableMillis()));
        cpuText.setText(Formats.cores(r.cpuRequestedMillis()) + " / " + Formats.cores(r.cpuAllocatableMillis()) + " cores");
        memory.setProgress(Formats.share(r.memoryRequestedBytes(), r.memoryAllocatableBytes()));
        memoryText.setText(Formats.memory(r.memoryRequestedBytes()) + " / " + Formats.memory(r.memoryAllocatableBytes()));
        NodeRow.RebootSafety safety = r.rebootSafety();
        reboot.setText(switch (safety) {
            case SAFE -> "Safe to reboot";
            case DRAINING -> "Not yet safe: " + plural(r.vmis(), "VMI") + ", " + plural(r.workloadPods(), "pod") + " left";
            case IN_SERVICE -> "In service";
        });
        reboot.setGraphic(Icons.icon(switch (safety) {
            case SAFE -> Material2AL.CHECK_CIRCLE;
            case DRAINING -> Material2AL.HOURGLASS_EMPTY;
            case IN_SERVICE -> Material2MZ.PLAY_ARROW;
        }, 16));
        getStyleClass().removeIf(c -> c.startsWith("reboot-"));
        getStyleClass().add("reboot-" + safety.name().toLowerCase(java.util.Locale.ROOT));
        reboot.setUserData(safety);
        if (r.memoryPressure() != getStyleClass().contains("memory-pressure")) {
            if (r.memoryPressure()) {
                getStyleClass().add("memory-pressure");
            } else {
                getStyleClass().remove("memory-pressure");
            }
        }
        setAccessibleText("Node " + r.name() + ", " + r.status() + (r.memoryPressure() ? ", memory pressure" : "")
                + ", " + safety.label());
    }

    /**
     * The node-pressure line: VMIs whose migrations race the kubelet's kill here, and VMIs it already lost.
     * Hidden when both are 0.
     */
    void showPressure(int racing, int lost) {
        boolean show = racing > 0 || lost > 0;
        String text = !show ? "" : (racing > 0 ? plural(racing, "VMI") + " migrating before the kubelet's kill" : "")
                + (racing > 0 && lost > 0 ? " · " : "") + (lost > 0 ? plural(lost, "VMI") + " lost to node pressure" : "");
        if (!text.equals(pressure.getText())) {
            pressure.setText(text);
        }
        pressure.setVisible(show);
        pressure.setManaged(show);
    }

    String pressureText() {
        return pressure.isVisible() ? pressure.getText() : "";
    }

    private static String plural(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    NodeRow row() {
        return row;
    }

    /** A taint as a tile shows it: on two lines from 32 characters, broken before its value (or its effect). */
    static String tileText(String taint) {
        if (taint.length() < 32) {
            return taint;
        }
        int at = taint.indexOf('=');
        if (at < 0) {
            at = taint.lastIndexOf(':');
        }
        return at <= 0 ? taint : taint.substring(0, at) + "\n" + taint.substring(at);
    }
}
