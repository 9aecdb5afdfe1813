package dev.drainboard.app;

import java.util.Map;
import java.util.Optional;

/**
 * Whether the console can open a window here. On Linux and the BSDs JavaFX's GTK glass needs an X11 or Wayland
 * display; without one it ends in a stack trace from deep inside the toolkit, so this is said first, in one line.
 */
final class DisplayRequirement {

    static final String NO_DISPLAY = "drainboard: the console needs a display (DISPLAY or WAYLAND_DISPLAY is not set);"
            + " for the command line see ./drainboard --help";

    private DisplayRequirement() {
    }

    /**
     * @param os        the {@code os.name} system property
     * @param glass     the {@code glass.platform} system property, if set (Monocle or Headless need no display)
     * @return the line to print when no window can be opened, else empty
     */
    static Optional<String> missing(Map<String, String> env, String os, String glass) {
        String name = os == null ? "" : os.toLowerCase(java.util.Locale.ROOT);
        if (name.startsWith("windows") || name.startsWith("mac") || (glass != null && !glass.isBlank())) {
            return Optional.empty();
        }
        return set(env.get("DISPLAY")) || set(env.get("WAYLAND_DISPLAY")) ? Optional.empty() : Optional.of(NO_DISPLAY);
    }

    private static boolean set(String value) {
        return value != null && !value.isBlank();
    }
}
