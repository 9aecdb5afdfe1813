package dev.drainboard.ui.vmis;

import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.model.VmiRow;
import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.Tooltip;
import javafx.util.Duration;

import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The VMIs table's "Node pressure" column: a danger badge for a VMI lost to a node-pressure eviction (the handler's
 * message on hover), a warning badge counting down to the kubelet's kill while its migration races it. One timer
 * for the whole column ticks once a second, only while a visible cell shows a countdown.
 */
final class PressureColumn {

    private final Clock clock;
    private final Set<PressureCell> counting = new LinkedHashSet<>();
    private final Timeline ticker = new Timeline(new KeyFrame(Duration.seconds(1), e -> tick()));

    PressureColumn(Clock clock) {
        this.clock = clock;
        ticker.setCycleCount(Animation.INDEFINITE);
    }

    TableColumn<VmiRow, VmiRow> column(double width) {
        TableColumn<VmiRow, VmiRow> column = new TableColumn<>("Node pressure");
        column.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue()));
        column.setCellFactory(c -> new PressureCell());
        // Lost first, then the nearest kill, then the rest.
        column.setComparator((a, b) -> {
            int byState = Integer.compare(rank(b), rank(a));
            return byState != 0 ? byState : a.nodePressureDeadline().compareTo(b.nodePressureDeadline());
        });
        column.setPrefWidth(width);
        column.setMinWidth(width);
        return column;
    }

    private static int rank(VmiRow r) {
        return r == null ? 0 : r.isLostToNodePressure() ? 2 : r.nodePressureDeadline().isEmpty() ? 0 : 1;
    }

    /** Redraws the countdowns; cells no longer on screen (scrolled away, view closed) drop out and stop the timer. */
    private void tick() {
        for (PressureCell cell : List.copyOf(counting)) {
            if (cell.getScene() == null || cell.getScene().getWindow() == null) {
                counting.remove(cell);
            } else {
                cell.render();
            }
        }
        if (counting.isEmpty()) {
            ticker.stop();
        }
    }

    private final class PressureCell extends TableCell<VmiRow, VmiRow> {

        private final Label badge = Badge.of("", Badge.Tone.NEUTRAL);
        private final Tooltip tip = new Tooltip();
        private Badge.Tone shownTone = Badge.Tone.NEUTRAL;

        PressureCell() {
            tip.setWrapText(true);
            tip.setMaxWidth(460);
            tip.setShowDelay(Duration.millis(250));
            badge.setTooltip(tip);
            badge.getStyleClass().add("pressure-badge");
            setGraphic(badge);
        }

        @Override
        protected void updateItem(VmiRow item, boolean empty) {
            super.updateItem(item, empty);
            render();
        }

        void render() {
            VmiRow row = isEmpty() ? null : getItem();
            NodePressure p = row == null ? null : NodePressure.of(row, clock.instant(), clock.getZone());
            boolean show = p != null && p.state() != NodePressure.State.NONE;
            if (show) {
                badge.setText(p.label());
                if (!p.detail().equals(tip.getText())) {
                    tip.setText(p.detail());
                }
                if (p.tone() != shownTone) {
                    Badge.style(badge, p.tone());
                    shownTone = p.tone();
                }
            }
            badge.setVisible(show);
            if (p != null && p.state() == NodePressure.State.RACING) {
                if (counting.add(this) && ticker.getStatus() != Animation.Status.RUNNING) {
                    ticker.play();
                }
            } else {
                counting.remove(this);
            }
        }
    }
}
