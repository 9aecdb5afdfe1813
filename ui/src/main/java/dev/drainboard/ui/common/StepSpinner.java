package dev.drainboard.ui.common;

import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.scene.layout.StackPane;
import javafx.scene.shape.Arc;
import javafx.scene.shape.ArcType;
import javafx.scene.shape.Circle;
import javafx.util.Duration;

/**
 * A busy indicator that turns in ten steps a second. JavaFX's indeterminate ProgressIndicator changes every pulse
 * (60 a second), and each changed frame costs a render and, without a GPU (Xvfb, remote X, VMs: Prism's software
 * pipeline), an upload of the whole window: while the embedded cluster started, that was a third of the console's
 * UI threads' CPU (docs/benchmarks.md, "Console start-up"). Runs only while {@link #runningProperty()} is true and
 * it is in a scene.
 */
public final class StepSpinner extends StackPane {

    static final Duration STEP = Duration.millis(100);
    static final double STEP_DEGREES = 36;

    private final Arc arc;
    private final Timeline turning;
    private final BooleanProperty running = new SimpleBooleanProperty(this, "running");

    public StepSpinner(double size) {
        double radius = size / 2 - 2;
        Circle track = new Circle(radius);
        track.getStyleClass().add("step-spinner-track");
        arc = new Arc(0, 0, radius, radius, 90, -100);
        arc.setType(ArcType.OPEN);
        arc.getStyleClass().add("step-spinner-arc");
        getStyleClass().add("step-spinner");
        getChildren().addAll(track, arc);
        setMinSize(size, size);
        setPrefSize(size, size);
        setMaxSize(size, size);
        turning = new Timeline(new KeyFrame(STEP, e -> arc.setRotate((arc.getRotate() + STEP_DEGREES) % 360)));
        turning.setCycleCount(Animation.INDEFINITE);
        running.addListener((obs, was, now) -> update());
        sceneProperty().addListener((obs, was, now) -> update());
    }

    /** Whether it turns (while also in a scene); bind it to what is busy. */
    public BooleanProperty runningProperty() {
        return running;
    }

    /** The arc's angle now, in degrees (for tests). */
    public double angle() {
        return arc.getRotate();
    }

    /** Whether its animation runs now. */
    public boolean isTurning() {
        return turning.getStatus() == Animation.Status.RUNNING;
    }

    private void update() {
        if (running.get() && getScene() != null) {
            turning.play();
        } else {
            turning.stop();
        }
    }
}
