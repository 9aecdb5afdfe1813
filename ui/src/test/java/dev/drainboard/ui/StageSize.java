package dev.drainboard.ui;

import javafx.stage.Stage;

/**
 * The size TestFX's shared stage had when a test began, to give it back at the end. A stage that had no size yet
 * (NaN: never shown) gets the console's own default instead: a NaN set back would leave the next test's window
 * without a size, so nothing in it could be clicked.
 */
record StageSize(double width, double height) {

    /** The console's scene size ({@code Console.show}). */
    private static final double DEFAULT_WIDTH = 1360;
    private static final double DEFAULT_HEIGHT = 860;

    static StageSize of(Stage stage) {
        return new StageSize(orDefault(stage.getWidth(), DEFAULT_WIDTH), orDefault(stage.getHeight(), DEFAULT_HEIGHT));
    }

    /** Call on the FX thread. */
    void restore(Stage stage) {
        stage.setWidth(width);
        stage.setHeight(height);
    }

    private static double orDefault(double size, double fallback) {
        return Double.isFinite(size) && size > 0 ? size : fallback;
    }
}
