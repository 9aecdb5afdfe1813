package dev.drainboard.ui.shell;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.ConnectionState;
import dev.drainboard.ui.model.Leadership;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.Separator;
import javafx.scene.control.Tooltip;
import javafx.geometry.Orientation;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.shape.Circle;
import javafx.util.Duration;

/** The bottom line: connection state, cluster, context, mode, leader, server. */
public final class StatusBar extends HBox {

    private final Circle dot = new Circle(4.5);
    private final Label state = new Label();
    private final Label leader = new Label();
    private final Tooltip leaderTip = tooltip("");

    private ObservableValue<String> reconnectReason = new javafx.beans.property.SimpleStringProperty("");

    public StatusBar(Session.Info info, ObservableValue<ConnectionState> connection, ObservableValue<Leadership> leadership) {
        this(info, connection, new javafx.beans.property.SimpleStringProperty(""), leadership);
    }

    /** @param reconnectReason why the state is Reconnecting (which watch is down, the cause), shown with it */
    public StatusBar(Session.Info info, ObservableValue<ConnectionState> connection, ObservableValue<String> reconnectReason,
                     ObservableValue<Leadership> leadership) {
        this.reconnectReason = reconnectReason;
        reconnectReason.addListener((obs, old, now) -> showState(connection.getValue()));
        getStyleClass().add("status-bar");
        setId("statusBar");
        setAlignment(Pos.CENTER_LEFT);
        setSpacing(10);
        setPadding(new Insets(5, 14, 5, 14));
        state.setGraphic(dot);
        state.setId("connectionState");
        state.getStyleClass().add("status-item");
        dot.getStyleClass().add("status-dot");
        connection.addListener((obs, old, now) -> showState(now));
        showState(connection.getValue());

        Label mode = item("Mode", info.mode().label(), info.modeReason());
        mode.setId("modeLabel");
        leader.setId("leaderLabel");
        leader.getStyleClass().add("status-item");
        leader.setTooltip(leaderTip);
        leadership.addListener((obs, old, now) -> showLeader(now));
        showLeader(leadership.getValue());
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        Label server = new Label(info.server() + "  ·  Kubernetes " + info.kubernetesVersion()
                + (info.kubeVirt() ? "" : "  ·  no KubeVirt API"));
        server.getStyleClass().addAll("status-item", Styles.TEXT_MUTED);
        getChildren().addAll(state, separator(),
                item("Cluster", info.cluster(), null), separator(),
                item("Context", info.context(), null), separator(),
                mode, separator(), leader, spacer, server);
    }

    /**
     * Shows the KubeVirt release whose drain path applies (docs/kubevirt-versions.md), after the mode and the leader;
     * hidden while the cluster has no KubeVirt profile to show.
     */
    public void showKubeVirtProfile(ObservableValue<dev.drainboard.ui.model.KubeVirtSettings> settings) {
        Label profile = new Label();
        profile.setId("kubevirtProfileLabel");
        profile.getStyleClass().add("status-item");
        Tooltip tip = tooltip("");
        profile.setTooltip(tip);
        Runnable update = () -> {
            String text = settings.getValue() == null ? "" : settings.getValue().profile();
            int paren = text.indexOf(" (");
            profile.setText(text.isEmpty() ? "" : (paren > 0 ? text.substring(0, paren) : text));
            tip.setText("Drain path of " + text + ": what the eviction webhook, the PodDisruptionBudgets and the "
                    + "controllers do follows this release.");
            profile.setVisible(!text.isEmpty());
            profile.setManaged(!text.isEmpty());
        };
        settings.addListener((obs, old, now) -> update.run());
        update.run();
        int at = getChildren().indexOf(leader) + 1;
        getChildren().addAll(at, java.util.List.of(separator(), profile));
    }

    private void showState(ConnectionState s) {
        String why = s == ConnectionState.RECONNECTING ? reconnectReason.getValue() : "";
        state.setText(why == null || why.isEmpty() ? s.label() : s.label() + ": " + why);
        dot.getStyleClass().removeIf(c -> c.startsWith("dot-"));
        dot.getStyleClass().add(switch (s) {
            case LIVE -> "dot-live";
            case SYNCING -> "dot-syncing";
            case RECONNECTING -> "dot-reconnecting";
            case CLOSED -> "dot-closed";
        });
        state.setTooltip(tooltip(switch (s) {
            case LIVE -> "All watches are open: every view is live.";
            case SYNCING -> "Listing the cluster's objects for the first time.";
            case RECONNECTING -> (why == null || why.isEmpty() ? "A watch dropped" : "Reconnecting: " + why)
                    + ". Retrying with back-off; the views show the last known state.";
            case CLOSED -> "Disconnected.";
        }));
    }

    private void showLeader(Leadership l) {
        String lease = l.lease().isEmpty() ? "leader election is off" : "Lease " + l.lease();
        switch (l.role()) {
            case LEADER -> {
                leader.setText("Leader: this process");
                leaderTip.setText("This process (" + l.identity() + ") runs the controllers; " + lease + ".");
            }
            case STANDBY -> {
                leader.setText("Leader: " + (l.leader().isEmpty() ? "none yet" : l.leader()));
                leaderTip.setText("Standby: this process stands for " + lease + " and runs its controllers once it leads.");
            }
            case OBSERVING -> {
                leader.setText("Leader: — (Observe)");
                leaderTip.setText("Observe mode: this process runs no controllers and stands for no Lease.");
            }
        }
    }

    private static Label item(String key, String value, String tip) {
        Label label = new Label(key + ": " + value);
        label.getStyleClass().add("status-item");
        if (tip != null) {
            label.setTooltip(tooltip(tip));
        }
        return label;
    }

    private static Tooltip tooltip(String text) {
        Tooltip t = new Tooltip(text);
        t.setShowDelay(Duration.millis(300));
        t.setWrapText(true);
        t.setMaxWidth(420);
        return t;
    }

    private static Separator separator() {
        return new Separator(Orientation.VERTICAL);
    }
}
