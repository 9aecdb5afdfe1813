package dev.drainboard.ui.shell;

import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

/** The console's main views, in navigation order; Ctrl+1 … Ctrl+9, then Ctrl+0, open them. */
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
    MAINTENANCE("Maintenance", "Plan, run and follow a rolling maintenance of many nodes", Material2MZ.UPDATE);

    private final String title;
    private final String subtitle;
    private final Ikon icon;

    ViewId(String title, String subtitle, Ikon icon) {
        this.title = title;
        this.subtitle = subtitle;
        this.icon = icon;
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
}
