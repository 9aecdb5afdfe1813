package dev.drainboard.ui;

import javafx.scene.image.Image;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The Drainboard icon at the sizes the window manager asks for (title bar, task bar, switcher). The PNGs are
 * generated from icons/drainboard.svg by icons/build.sh; a missing one is skipped rather than failing the window.
 */
public final class AppIcon {

    static final int[] SIZES = {16, 32, 48, 64, 128, 256};

    private AppIcon() {
    }

    /** One image per size, smallest first. */
    public static List<Image> images() {
        List<Image> images = new ArrayList<>();
        for (int size : SIZES) {
            try (InputStream in = AppIcon.class.getResourceAsStream("icons/drainboard-" + size + ".png")) {
                if (in != null) {
                    images.add(new Image(in));
                }
            } catch (java.io.IOException e) {
                // A window without one icon size is still a working window.
            }
        }
        return images;
    }
}
