package dev.drainboard.ui.shell;

import atlantafx.base.theme.PrimerDark;
import atlantafx.base.theme.PrimerLight;
import javafx.application.Application;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;

import java.util.prefs.Preferences;

/** Light or dark AtlantaFX theme, applied to the whole application and remembered in the user's preferences. */
public final class ThemeManager {

    private static final String KEY = "theme.dark";

    private final Preferences prefs;
    private final BooleanProperty dark = new SimpleBooleanProperty();

    public ThemeManager(Preferences prefs) {
        this.prefs = prefs;
        dark.set(prefs.getBoolean(KEY, false));
        apply();
        dark.addListener((obs, was, now) -> {
            prefs.putBoolean(KEY, now);
            apply();
        });
    }

    public BooleanProperty darkProperty() {
        return dark;
    }

    public boolean isDark() {
        return dark.get();
    }

    public void toggle() {
        dark.set(!dark.get());
    }

    private void apply() {
        // The binary form AtlantaFX ships beside each theme's CSS (the same rules, compiled): JavaFX reads it without
        // parsing 165 KB of CSS on the FX thread before the first frame (docs/benchmarks.md, "Console start-up").
        Application.setUserAgentStylesheet(dark.get()
                ? new PrimerDark().getUserAgentStylesheetBSS()
                : new PrimerLight().getUserAgentStylesheetBSS());
    }
}
