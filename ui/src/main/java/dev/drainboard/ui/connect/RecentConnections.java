package dev.drainboard.ui.connect;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.prefs.Preferences;

/** The last connections made, newest first, kept in the user's preferences. */
public final class RecentConnections {

    private static final int KEEP = 8;
    private static final String KEY = "recent.";

    private final Preferences prefs;

    public RecentConnections(Preferences prefs) {
        this.prefs = prefs;
    }

    public List<ConnectTarget> list() {
        List<ConnectTarget> result = new ArrayList<>();
        for (int i = 0; i < KEEP; i++) {
            Optional.ofNullable(prefs.get(KEY + i, null)).flatMap(ConnectTarget::decode).ifPresent(result::add);
        }
        return result;
    }

    /** Puts the target first, dropping an older entry for the same target and anything past the limit. */
    public void remember(ConnectTarget target) {
        List<ConnectTarget> list = new ArrayList<>(list());
        list.removeIf(t -> t.encode().equals(target.encode()));
        list.addFirst(target);
        for (int i = 0; i < KEEP; i++) {
            if (i < list.size()) {
                prefs.put(KEY + i, list.get(i).encode());
            } else {
                prefs.remove(KEY + i);
            }
        }
    }
}
