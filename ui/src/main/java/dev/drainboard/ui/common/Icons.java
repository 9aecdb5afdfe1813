package dev.drainboard.ui.common;

import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.javafx.FontIcon;

/** Ikonli icons at the console's standard sizes. */
public final class Icons {

    private Icons() {
    }

    public static FontIcon icon(Ikon ikon) {
        return icon(ikon, 16);
    }

    public static FontIcon icon(Ikon ikon, int size) {
        FontIcon icon = new FontIcon(ikon);
        icon.setIconSize(size);
        return icon;
    }
}
