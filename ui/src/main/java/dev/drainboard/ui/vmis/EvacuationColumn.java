package dev.drainboard.ui.vmis;

import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.common.TableScreen;
import dev.drainboard.ui.model.VmiRow;
import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.Tooltip;
import javafx.util.Duration;

import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The VMIs table's Evacuation column ({@link EvacuationState}): the eviction's mark, a warning badge counting down
 * to the kubelet's kill while a node-pressure eviction's migration races it, a danger badge for a VMI lost to one
 * (the handler's message on hover). One timer for the whole column ticks once a second, only while a cell on
 * screen shows a countdown.
 */
final class EvacuationColumn {

    private final Clock clock;
    private final Set<EvacuationCell> counting = new LinkedHashSet<>();
    private final Timeline ticker = new Timeline(new KeyFrame(Duration.seconds(1), e -> tick()));

    EvacuationColumn(Clock clock) {
        this.clock = clock;
        ticker.setCycleCount(Animation.INDEFINITE);
    }

    /** Adds the column to the VMIs table. */
    void addTo(TableScreen<VmiRow> screen, double width) {
        screen.rowColumn("Evacuation", EvacuationCell::new, (a, b) -> {
            int byState = Integer.compare(state(b).rank(), state(a).rank());
            if (byState != 0) {
                return byState;
            }
            int byKill = a.nodePressureDeadline().compareTo(b.nodePressureDeadline());
            return byKill != 0 ? byKill : a.evacuationNode().compareTo(b.evacuationNode());
        }, width);
    }

    private EvacuationState state(VmiRow r) {
        return EvacuationState.of(r, clock.instant(), clock.getZone());
    }

    /** Redraws the countdowns; cells no longer on screen (scrolled away, view closed) drop out and stop the timer. */
    private void tick() {
        for (EvacuationCell cell : List.copyOf(counting)) {
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

    private final class EvacuationCell extends TableCell<VmiRow, VmiRow> {

        private final Label badge = Badge.of("", Badge.Tone.NEUTRAL);
        private final Tooltip tip = new Tooltip();
        private Badge.Tone shownTone = Badge.Tone.NEUTRAL;

        EvacuationCell() {
            tip.setWrapText(true);
            tip.setMaxWidth(460);
            tip.setShowDelay(Duration.millis(250));
            badge.setTooltip(tip);
            badge.getStyleClass().add("evacuation-badge");
            setGraphic(badge);
        }

        @Override
        protected void updateItem(VmiRow item, boolean empty) {
            super.updateItem(item, empty);
            render();
        }

        void render() {
            VmiRow row = isEmpty() ? null : getItem();
            EvacuationState state = row == null ? null : state(row);
            boolean show = state != null && !state.text().isEmpty();
            if (show) {
                badge.setText(state.text());
                if (!state.tip().equals(tip.getText())) {
                    tip.setText(state.tip());
                }
                if (state.tone() != shownTone) {
                    Badge.style(badge, state.tone());
                    shownTone = state.tone();
                }
            }
            badge.setVisible(show);
            if (state != null && state.counting()) {
                if (counting.add(this) && ticker.getStatus() != Animation.Status.RUNNING) {
                    ticker.play();
                }
            } else {
                counting.remove(this);
            }
        }
    }
}
