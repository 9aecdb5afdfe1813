package dev.drainboard.ui.controllers;

import atlantafx.base.theme.Styles;
import atlantafx.base.theme.Tweaks;
import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.Formats;
import dev.drainboard.ui.common.Icons;
import dev.drainboard.ui.connect.Mode;
import dev.drainboard.ui.connect.Session;
import dev.drainboard.ui.model.ControlPlaneStatus;
import dev.drainboard.ui.model.ControllerRow;
import dev.drainboard.ui.model.KubeVirtSettings;
import dev.drainboard.ui.model.Leadership;
import dev.drainboard.controlplane.WebhookAddress;
import dev.drainboard.ui.model.WebhookStatus;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.util.Duration;
import org.kordamp.ikonli.material2.Material2MZ;

import java.util.Locale;
import java.util.function.Function;

/**
 * The drain control plane: this connection's mode, who leads, the eviction webhook, each control loop's figures
 * (live from {@link ControlPlaneStatus}) and the KubeVirt configuration in force (live from the KubeVirt CR).
 */
public final class ControllersView implements dev.drainboard.ui.shell.ConsoleView {

    private static final double ROW_HEIGHT = 34;
    private static final double HEADER_HEIGHT = 44;

    private final Session.Info info;
    private final ScrollPane root;
    private final Label roleBadge = Badge.of("", Badge.Tone.NEUTRAL);
    private final Label leaderLine = new Label();
    private final Label webhookLine = new Label();
    /** Shown while this process serves the webhook to anyone who connects: who that is, and how to close it. */
    private final Label webhookAuthWarning = new Label();
    private final TableView<ControllerRow> table = new TableView<>();
    private final GridPane settingsGrid = new GridPane();
    private final FlowPane gates = new FlowPane(6, 6);
    private final Label source = new Label();
    private final KubeVirtVersionOverride override;

    public ControllersView(Session.Info info, ControlPlaneStatus status, ObservableValue<KubeVirtSettings> settings) {
        this(info, status, settings, null);
    }

    /**
     * @param override the embedded cluster's choice of KubeVirt release, or null where the cluster's own KubeVirt
     *                 says which release it runs
     */
    public ControllersView(Session.Info info, ControlPlaneStatus status, ObservableValue<KubeVirtSettings> settings,
                           KubeVirtVersionOverride override) {
        this.info = info;
        this.override = override;

        VBox planeCard = card("Control plane");
        Label mode = new Label(info.mode().label() + " mode");
        mode.getStyleClass().add(Styles.TITLE_4);
        roleBadge.setId("leaderBadge");
        HBox modeRow = new HBox(10, mode, roleBadge);
        modeRow.setAlignment(Pos.CENTER_LEFT);
        Label reason = new Label(info.modeReason());
        reason.setWrapText(true);
        reason.getStyleClass().add(Styles.TEXT_MUTED);
        leaderLine.setId("leaderLine");
        leaderLine.setWrapText(true);
        leaderLine.setGraphic(Icons.icon(Material2MZ.STARS, 16));
        leaderLine.getStyleClass().add("plane-line");
        webhookLine.setId("webhookLine");
        webhookLine.setWrapText(true);
        webhookLine.setGraphic(Icons.icon(Material2MZ.POLICY, 16));
        webhookLine.getStyleClass().add("plane-line");
        webhookAuthWarning.setId("webhookAuthWarning");
        webhookAuthWarning.setWrapText(true);
        webhookAuthWarning.setGraphic(Icons.icon(Material2MZ.WARNING, 16));
        webhookAuthWarning.getStyleClass().addAll("plane-line", Styles.DANGER);
        webhookAuthWarning.managedProperty().bind(webhookAuthWarning.visibleProperty());
        webhookAuthWarning.setVisible(false);
        planeCard.getChildren().addAll(modeRow, reason, leaderLine, webhookLine, webhookAuthWarning);
        status.leadership().addListener((obs, old, now) -> showLeadership(now));
        showLeadership(status.leadership().getValue());
        status.webhook().addListener((obs, old, now) -> showWebhook(now, status.leadership().getValue()));
        showWebhook(status.webhook().getValue(), status.leadership().getValue());

        VBox loopsCard = card("Controllers");
        Label loopsNote = new Label("Leader-elected loops run while this process leads; the node handler runs wherever "
                + "its simulated nodes live. Rates are per second over the last poll; hover a row for its latest error.");
        loopsNote.setWrapText(true);
        loopsNote.getStyleClass().add(Styles.TEXT_MUTED);
        buildTable(status);
        loopsCard.getChildren().addAll(loopsNote, table);

        VBox configCard = card("KubeVirt configuration");
        source.getStyleClass().add(Styles.TEXT_MUTED);
        ColumnConstraints keys = new ColumnConstraints();
        keys.setMinWidth(280);
        settingsGrid.getColumnConstraints().addAll(keys, new ColumnConstraints());
        settingsGrid.setHgap(16);
        settingsGrid.setVgap(8);
        settingsGrid.setId("kubevirtSettings");
        Label gatesHeader = new Label("Feature gates");
        gatesHeader.getStyleClass().add("section-label");
        configCard.getChildren().addAll(source, settingsGrid, gatesHeader, gates);
        if (override != null) {
            configCard.getChildren().add(overrideRow(override));
        }

        settings.addListener((obs, old, now) -> show(now));
        show(settings.getValue());

        VBox content = new VBox(16, planeCard, loopsCard, configCard);
        content.setPadding(new Insets(0, 4, 4, 0));
        root = new ScrollPane(content);
        root.setFitToWidth(true);
        root.getStyleClass().add("edge-to-edge");
    }

    private void buildTable(ControlPlaneStatus status) {
        table.setId("controllersTable");
        table.getStyleClass().addAll(Styles.STRIPED, Tweaks.EDGE_TO_EDGE, "controllers-table");
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setItems(status.controllers());
        table.setFixedCellSize(ROW_HEIGHT);
        // As tall as its rows: the page scrolls, not the table.
        table.prefHeightProperty().bind(Bindings.createDoubleBinding(
                () -> ROW_HEIGHT * Math.max(1, table.getItems().size()) + HEADER_HEIGHT, table.getItems()));
        table.minHeightProperty().bind(table.prefHeightProperty());
        Label placeholder = new Label(info.mode() == Mode.CONTROL ? "Starting the controllers…"
                : "This process runs no controllers for this connection.");
        placeholder.getStyleClass().add(Styles.TEXT_MUTED);
        table.setPlaceholder(placeholder);
        table.setRowFactory(t -> new TableRow<>() {
            private final Tooltip tip = tooltip("");

            @Override
            protected void updateItem(ControllerRow item, boolean empty) {
                super.updateItem(item, empty);
                getStyleClass().removeAll("row-warning", "row-danger");
                if (empty || item == null || item.lastError().isEmpty()) {
                    setTooltip(null);
                } else {
                    tip.setText("Latest error: " + item.lastError());
                    setTooltip(tip);
                }
                if (!empty && item != null && !item.lastError().isEmpty() && item.errors() > 0 && item.queueDepth() + item.delayed() > 0) {
                    getStyleClass().add("row-warning"); // failing and still retrying
                }
            }
        });

        TableColumn<ControllerRow, ControllerRow> name = new TableColumn<>("Controller");
        name.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue()));
        name.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(ControllerRow item, boolean empty) {
                super.updateItem(item, empty);
                if (empty || item == null) {
                    setGraphic(null);
                    return;
                }
                Label title = new Label(item.name());
                title.getStyleClass().add("controller-name");
                Label scope = new Label(item.leaderElected() ? "leader-elected" : "this process");
                scope.getStyleClass().addAll(Styles.TEXT_MUTED, "controller-scope");
                HBox box = new HBox(8, title, scope);
                box.setAlignment(Pos.CENTER_LEFT);
                setGraphic(box);
            }
        });
        size(name, 230);

        TableColumn<ControllerRow, String> state = new TableColumn<>("State");
        state.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue().state()));
        state.setCellFactory(c -> new TableCell<>() {
            private final Label badge = Badge.of("", Badge.Tone.NEUTRAL);

            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                if (empty || item == null) {
                    setGraphic(null);
                    return;
                }
                badge.setText(item);
                Badge.style(badge, switch (item) {
                    case "RUNNING" -> Badge.Tone.SUCCESS;
                    case "WAITING_FOR_SYNC" -> Badge.Tone.WARNING;
                    default -> Badge.Tone.NEUTRAL;
                });
                setGraphic(badge);
            }
        });
        size(state, 140);

        table.getColumns().addAll(java.util.List.of(name, state,
                number("Workers", r -> (long) r.workers(), r -> String.valueOf(r.workers()), 76),
                number("Queue", r -> (long) r.queueDepth() + r.delayed(),
                        r -> r.delayed() == 0 ? String.valueOf(r.queueDepth()) : r.queueDepth() + " + " + r.delayed() + " delayed", 110),
                number("In flight", r -> (long) r.inFlight(), r -> String.valueOf(r.inFlight()), 80),
                number("Reconciles", ControllerRow::reconciles, r -> String.valueOf(r.reconciles()), 100),
                number("Per second", r -> Math.round(r.reconcilesPerSecond() * 10), r -> rate(r.reconcilesPerSecond()), 100),
                number("Errors", ControllerRow::errors, r -> String.valueOf(r.errors()), 70),
                number("Avg latency", r -> r.averageLatency().toNanos(), r -> latency(r.averageLatency()), 100)));
        table.getColumns().getLast().getStyleClass().remove(Tweaks.ALIGN_RIGHT);
    }

    /** A right-aligned column sorted by a number, shown as the row says. */
    private static TableColumn<ControllerRow, ControllerRow> number(String title, Function<ControllerRow, Long> key,
                                                                    Function<ControllerRow, String> text, double width) {
        TableColumn<ControllerRow, ControllerRow> column = new TableColumn<>(title);
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue()));
        column.setComparator((a, b) -> Long.compare(key.apply(a), key.apply(b)));
        column.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(ControllerRow item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty || item == null ? null : text.apply(item));
                getStyleClass().remove("cell-danger");
                if (!empty && item != null && title.equals("Errors") && item.errors() > 0) {
                    getStyleClass().add("cell-danger");
                }
            }
        });
        column.getStyleClass().add(Tweaks.ALIGN_RIGHT);
        size(column, width);
        return column;
    }

    private static void size(TableColumn<?, ?> column, double width) {
        column.setPrefWidth(width);
        column.setMinWidth(width);
    }

    static String rate(double perSecond) {
        if (perSecond == 0) {
            return "0";
        }
        return perSecond < 10 ? String.format(Locale.ROOT, "%.1f", perSecond) : String.valueOf(Math.round(perSecond));
    }

    static String latency(java.time.Duration d) {
        if (d.isZero()) {
            return "—";
        }
        long micros = d.toNanos() / 1_000;
        if (micros < 1_000) {
            return micros + " µs";
        }
        double millis = micros / 1_000.0;
        return millis < 100 ? String.format(Locale.ROOT, "%.1f ms", millis) : Math.round(millis) + " ms";
    }

    private void showLeadership(Leadership l) {
        String lease = l.lease().isEmpty() ? "" : " (Lease " + l.lease() + ")";
        switch (l.role()) {
            case LEADER -> {
                roleBadge.setText("Leader");
                Badge.style(roleBadge, Badge.Tone.SUCCESS);
                leaderLine.setText(l.lease().isEmpty()
                        ? "This process runs the controllers (leader election is off)."
                        : "This process leads as " + l.identity() + lease + ": its controllers reconcile this cluster.");
            }
            case STANDBY -> {
                roleBadge.setText("Standby");
                Badge.style(roleBadge, Badge.Tone.WARNING);
                leaderLine.setText(l.leader().isEmpty()
                        ? "Standing for leader" + lease + ": no leader known yet."
                        : "Standby: the leader is " + l.leader() + lease + ". This process"
                                + (l.identity().isEmpty() ? "" : " (" + l.identity() + ")")
                                + " takes over if it stops renewing the Lease.");
            }
            case OBSERVING -> {
                roleBadge.setText("Observing");
                Badge.style(roleBadge, Badge.Tone.NEUTRAL);
                leaderLine.setText("Not running controllers: this connection is in Observe mode, so this process "
                        + "stands for no Lease and changes nothing. " + info.modeReason());
            }
        }
    }

    private void showWebhook(WebhookStatus w, Leadership l) {
        if (w.serving()) {
            webhookLine.setText("Eviction webhook: serving at " + w.url() + " · " + w.answered() + " review"
                    + (w.answered() == 1 ? "" : "s") + " answered"
                    + (w.malformed() == 0 ? "" : ", " + w.malformed() + " malformed")
                    + (w.authenticated() ? "\nAuthenticated: " + w.callers() + "." : "")
                    + reachability());
            webhookAuthWarning.setText(w.authenticated() ? "" : w.callers());
            webhookAuthWarning.setVisible(!w.authenticated());
        } else {
            webhookAuthWarning.setVisible(false);
            webhookLine.setText(switch (l.role()) {
                case LEADER -> "Eviction webhook: not serving (starting, or turned off).";
                case STANDBY -> "Eviction webhook: served by the leader; this process serves it once it leads.";
                case OBSERVING -> "Eviction webhook: not served by this process.";
            });
        }
    }

    /**
     * For a cluster whose API server is elsewhere: how the address was chosen, and what happens when the API server
     * cannot reach it (its calls fail, failurePolicy Ignore passes evictions to the PDBs, LiveMigrate VMIs never move).
     */
    private String reachability() {
        return reachability(info.embedded(), info.server(), info.webhook());
    }

    static String reachability(boolean embedded, String server, WebhookAddress webhook) {
        if (embedded || webhook == null || WebhookAddress.onThisMachine(server)) {
            return "";
        }
        return "\nAddress: " + webhook.how() + ". The API server at " + server + " must reach it: if it cannot, evictions "
                + "of LiveMigrate VMIs' pods wait on their PDBs and no VMI migrates. Start the console with "
                + "--webhook-host ADDRESS to choose another.";
    }

    private void show(KubeVirtSettings s) {
        source.setText(s.source().isEmpty() ? "No KubeVirt CR: KubeVirt's defaults apply."
                : "From KubeVirt CR " + s.source() + " (live).");
        settingsGrid.getChildren().clear();
        int row = 0;
        if (!s.profile().isEmpty()) {
            Label profile = value(s.profile());
            profile.setId("kubevirtProfile");
            profile.setTooltip(tooltip("The KubeVirt release whose drain path applies: the eviction webhook's failure policy, "
                    + "PodDisruptionBudgets or not, who refuses repeated evictions (docs/kubevirt-versions.md)."));
            settingsGrid.addRow(row++, key("KubeVirt release (drain path)"), profile);
        }
        settingsGrid.addRow(row++, key("Default eviction strategy"), value(s.evictionStrategy()));
        for (KubeVirtSettings.Setting setting : s.migrations()) {
            settingsGrid.addRow(row++, key(setting.label()), value(setting.value()));
        }
        gates.getChildren().clear();
        if (s.featureGates().isEmpty()) {
            Label none = new Label("none enabled");
            none.getStyleClass().add(Styles.TEXT_MUTED);
            gates.getChildren().add(none);
        }
        s.featureGates().forEach(g -> gates.getChildren().add(Badge.of(g, Badge.Tone.ACCENT)));
    }

    private static Tooltip tooltip(String text) {
        Tooltip t = new Tooltip(text);
        t.setShowDelay(Duration.millis(300));
        t.setWrapText(true);
        t.setMaxWidth(520);
        return t;
    }

    /** The embedded cluster's KubeVirt release: a choice that rewrites its KubeVirt CR status and is remembered. */
    private static HBox overrideRow(KubeVirtVersionOverride override) {
        javafx.scene.control.ComboBox<String> choice = new javafx.scene.control.ComboBox<>(
                javafx.collections.FXCollections.observableArrayList(KubeVirtVersionOverride.VERSIONS));
        choice.setId("kubevirtVersionChoice");
        choice.setPromptText("as the scenario says");
        override.remembered().ifPresent(choice::setValue);
        choice.setTooltip(tooltip("Run the embedded cluster as this KubeVirt release does: written into its KubeVirt CR's "
                + "status.observedKubeVirtVersion, which the controllers, the eviction webhook and this console follow; "
                + "remembered for this cluster."));
        Label feedback = new Label();
        feedback.getStyleClass().add(Styles.TEXT_MUTED);
        choice.setOnAction(e -> {
            String version = choice.getValue();
            if (version == null) {
                return;
            }
            try {
                override.choose(version);
                feedback.setText("The cluster now reports " + version + ".");
            } catch (RuntimeException ex) {
                feedback.setText("Not changed: " + ex.getMessage());
            }
        });
        Label label = key("Embedded cluster runs KubeVirt");
        HBox row = new HBox(12, label, choice, feedback);
        row.setAlignment(Pos.CENTER_LEFT);
        return row;
    }

    private static Label key(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("fact-key");
        return l;
    }

    private static Label value(String text) {
        Label l = new Label(Formats.orDash(text));
        l.getStyleClass().add("fact-value");
        return l;
    }

    private static VBox card(String title) {
        Label header = new Label(title);
        header.getStyleClass().add("card-title");
        VBox card = new VBox(10, header);
        card.getStyleClass().add("panel-card");
        HBox.setHgrow(card, Priority.ALWAYS);
        return card;
    }

    @Override
    public Node root() {
        return root;
    }
}
