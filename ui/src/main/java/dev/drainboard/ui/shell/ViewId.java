package dev.drainboard.ui.shell;

import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

/**
 * The console's main views, in navigation order; Ctrl+1 … Ctrl+9, then Ctrl+0, open the first ten, later ones have a
 * Ctrl+Shift+letter shortcut of their own (so adding a view never renumbers the digits operators and tests use).
 */
public enum ViewId {
    OVERVIEW("Overview", "Every node at a glance: is it ready, what runs on it, is it safe to reboot", Material2AL.DASHBOARD),
    NODES("Nodes", "Readiness, scheduling, taints and load of each node", Material2AL.DNS),
    VMIS("VMIs", "Virtual machine instances and how a drain would treat them", Material2AL.COMPUTER),
    MIGRATIONS("Migrations", "Live migrations in flight and recent", Material2AL.COMPARE_ARROWS),
    PDBS("PDBs", "Pod disruption budgets and the evictions they allow", Material2MZ.SECURITY),
    REPLICA_SETS("Replica sets", "VMI replica sets: desired, current and ready", Material2AL.LAYERS),
    EVENTS("Events", "The cluster's events as they happen", Material2MZ.NOTIFICATIONS),
    CONTROLLERS("Controllers", "The drain control plane and KubeVirt's configuration", Material2MZ.SETTINGS),
    HISTORY("History", "Drains, evacuations and cancelled migrations the cluster has recorded", Material2AL.HISTORY),
    MAINTENANCE("Maintenance", "Plan, run and follow a rolling maintenance of many nodes", Material2MZ.UPDATE),
    VMS("VMs", "Virtual machines: run strategy, status, and start, stop or restart", Material2AL.DESKTOP_WINDOWS, KeyCode.V),
    PODS("Pods", "The pods besides VMIs' launchers on each node, and what a drain does with them", Material2AL.GRAIN, KeyCode.P);

    private final String title;
    private final String subtitle;
    private final Ikon icon;
    /** The letter of a Ctrl+Shift shortcut, or null for a Ctrl+digit view. */
    private final KeyCode letter;

    ViewId(String title, String subtitle, Ikon icon) {
        this(title, subtitle, icon, null);
    }

    ViewId(String title, String subtitle, Ikon icon, KeyCode letter) {
        this.title = title;
        this.subtitle = subtitle;
        this.icon = icon;
        this.letter = letter;
    }

    public String title() {
        return title;
    }

    public String subtitle() {
        return subtitle;
    }

    public Ikon icon() {
        return icon;
    }

    /** The digit of its Ctrl shortcut: 1 … 9, then 0 for the tenth view (the digit keys' order). */
    public int shortcut() {
        return (ordinal() + 1) % 10;
    }

    /** The key combination that opens it: Ctrl+digit, or Ctrl+Shift+letter. */
    public KeyCombination keys() {
        if (letter != null) {
            return new KeyCodeCombination(letter, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);
        }
        return new KeyCodeCombination(KeyCode.valueOf("DIGIT" + shortcut()), KeyCombination.SHORTCUT_DOWN);
    }

    /** How menus and tooltips name the shortcut: {@code Ctrl+3}, {@code Ctrl+Shift+V}. */
    public String shortcutText() {
        return letter != null ? "Ctrl+Shift+" + letter.getName() : "Ctrl+" + shortcut();
    }
}
