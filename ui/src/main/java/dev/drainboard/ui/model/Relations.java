package dev.drainboard.ui.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Stream;

import static java.util.Map.entry;

/**
 * Which objects relate to which (VMI ↔ launcher pods ↔ PDBs ↔ VMIMs ↔ nodes, and a VMI's VM or replica-set owner),
 * computed from the rows the console already holds: no API call, nothing cached. The lists are read as they are
 * when asked (on the FX thread), so the answer is as fresh as the tables.
 *
 * <p>Long relations (a node's VMIs) list the first {@value #LIMIT} and count the rest.
 */
public final class Relations {

    static final int LIMIT = 12;

    private final List<NodeRow> nodes;
    private final List<VmiRow> vmis;
    private final List<PodRow> pods;
    private final List<PdbRow> pdbs;
    private final List<MigrationRow> migrations;
    private final List<ReplicaSetRow> replicaSets;

    public Relations(List<NodeRow> nodes, List<VmiRow> vmis, List<PodRow> pods, List<PdbRow> pdbs,
                     List<MigrationRow> migrations, List<ReplicaSetRow> replicaSets) {
        this.nodes = nodes;
        this.vmis = vmis;
        this.pods = pods;
        this.pdbs = pdbs;
        this.migrations = migrations;
        this.replicaSets = replicaSets;
    }

    /** The related objects of {@code ref}, grouped by relation, in a fixed order; empty groups are left out. */
    public List<RelatedGroup> of(ObjectRef ref) {
        List<RelatedGroup> groups = new ArrayList<>();
        switch (ref.kind()) {
            case VMI -> find(vmis, ref).ifPresent(v -> ofVmi(v, groups));
            case POD -> find(pods, ref).ifPresent(p -> ofPod(p, groups));
            case VMIM -> find(migrations, ref).ifPresent(m -> ofMigration(m, groups));
            case NODE -> ofNode(ref.name(), groups);
            case PDB -> ofPdb(ref, groups);
            case VMIRS, VM -> add(groups, ref.kind() == ObjectRef.Kind.VM ? "Instance" : "Instances",
                    vmis.stream().filter(v -> ref.equals(v.owner())), VmiRow::ref, Relations::vmiNote);
            default -> { }
        }
        return groups;
    }

    /**
     * Facts for objects no view lists (launcher pods, VMs), shown in place in the details pane; empty for others
     * or when the object is gone.
     */
    public List<Map.Entry<String, String>> factsOf(ObjectRef ref) {
        if (ref.kind() == ObjectRef.Kind.POD) {
            return find(pods, ref).map(p -> List.<Map.Entry<String, String>>of(
                    entry("Phase", p.phase()), entry("Node", p.node()), entry("VMI", p.vmi()),
                    entry("Role", p.migrationUid().isEmpty() ? "launcher" : "migration target"))).orElse(List.of());
        }
        if (ref.kind() == ObjectRef.Kind.VM) {
            return vmis.stream().filter(v -> ref.equals(v.owner())).findFirst()
                    .map(v -> List.<Map.Entry<String, String>>of(entry("Instance", v.name() + " — " + vmiNote(v))))
                    .orElse(List.of(entry("Instance", "none running")));
        }
        return List.of();
    }

    private void ofVmi(VmiRow v, List<RelatedGroup> groups) {
        if (v.owner() != null) {
            groups.add(new RelatedGroup("Owner", List.of(new RelatedGroup.Link(v.owner(),
                    v.owner().kind() == ObjectRef.Kind.VM ? "VirtualMachine" : "replica set")), 0));
        }
        add(groups, "Node", Stream.of(v.node()).filter(n -> !n.isEmpty()), ObjectRef::node, this::nodeNote);
        add(groups, "Launcher pods", pods.stream().filter(p -> p.namespace().equals(v.namespace()) && p.vmi().equals(v.name()))
                .sorted(Comparator.comparing(PodRow::created).reversed()), PodRow::ref, Relations::podNote);
        add(groups, "Protected by", pdbNames(v.pdbs()).map(n -> findPdb(v.namespace(), n)).flatMap(java.util.Optional::stream),
                PdbRow::ref, Relations::pdbNote);
        add(groups, "Migrations", migrationsOf(v.namespace(), v.name()), MigrationRow::ref, Relations::migrationNote);
    }

    private void ofPod(PodRow p, List<RelatedGroup> groups) {
        add(groups, "VMI", vmis.stream().filter(v -> v.namespace().equals(p.namespace()) && v.name().equals(p.vmi())),
                VmiRow::ref, Relations::vmiNote);
        add(groups, "Node", Stream.of(p.node()).filter(n -> !n.isEmpty()), ObjectRef::node, this::nodeNote);
        add(groups, "Target of", migrations.stream().filter(m -> !p.migrationUid().isEmpty() && p.migrationUid().equals(m.uid())),
                MigrationRow::ref, Relations::migrationNote);
        add(groups, "Protected by", vmis.stream()
                        .filter(v -> v.namespace().equals(p.namespace()) && v.name().equals(p.vmi()))
                        .flatMap(v -> pdbNames(v.pdbs())).map(n -> findPdb(p.namespace(), n)).flatMap(java.util.Optional::stream),
                PdbRow::ref, Relations::pdbNote);
    }

    private void ofMigration(MigrationRow m, List<RelatedGroup> groups) {
        add(groups, "VMI", vmis.stream().filter(v -> v.namespace().equals(m.namespace()) && v.name().equals(m.vmi())),
                VmiRow::ref, Relations::vmiNote);
        add(groups, "Source node", Stream.of(m.sourceNode()).filter(n -> !n.isEmpty()), ObjectRef::node, this::nodeNote);
        add(groups, "Target node", Stream.of(m.targetNode()).filter(n -> !n.isEmpty()), ObjectRef::node, this::nodeNote);
        add(groups, "Pods", pods.stream().filter(p -> p.namespace().equals(m.namespace())
                        && (p.name().equals(m.sourcePod()) || p.name().equals(m.targetPod())
                        || (!m.uid().isEmpty() && m.uid().equals(p.migrationUid()))))
                        .sorted(Comparator.comparing(PodRow::created)),
                PodRow::ref, p -> (p.name().equals(m.sourcePod()) ? "source, " : "target, ") + podNote(p));
        add(groups, "Protected by", vmis.stream()
                        .filter(v -> v.namespace().equals(m.namespace()) && v.name().equals(m.vmi()))
                        .flatMap(v -> pdbNames(v.pdbs())).map(n -> findPdb(m.namespace(), n)).flatMap(java.util.Optional::stream),
                PdbRow::ref, Relations::pdbNote);
    }

    private void ofNode(String node, List<RelatedGroup> groups) {
        add(groups, "VMIs", vmis.stream().filter(v -> node.equals(v.node())).sorted(BY_KEY),
                VmiRow::ref, Relations::vmiNote);
        add(groups, "Migrations out", migrations.stream().filter(m -> node.equals(m.sourceNode())).sorted(NEWEST_FIRST),
                MigrationRow::ref, m -> m.vmi() + " → " + orDash(m.targetNode()) + ", " + m.phase());
        add(groups, "Migrations in", migrations.stream().filter(m -> node.equals(m.targetNode())).sorted(NEWEST_FIRST),
                MigrationRow::ref, m -> m.vmi() + " from " + orDash(m.sourceNode()) + ", " + m.phase());
    }

    private void ofPdb(ObjectRef ref, List<RelatedGroup> groups) {
        List<VmiRow> protectedVmis = vmis.stream()
                .filter(v -> v.namespace().equals(ref.namespace()) && pdbNames(v.pdbs()).anyMatch(ref.name()::equals))
                .sorted(BY_KEY).toList();
        add(groups, "Protects", protectedVmis.stream(), VmiRow::ref, Relations::vmiNote);
        add(groups, "Launcher pods", pods.stream().filter(p -> p.namespace().equals(ref.namespace())
                        && protectedVmis.stream().anyMatch(v -> v.name().equals(p.vmi()))
                        && !"Succeeded".equals(p.phase()) && !"Failed".equals(p.phase())),
                PodRow::ref, Relations::podNote);
    }

    private static final Comparator<VmiRow> BY_KEY = Comparator.comparing(VmiRow::namespace).thenComparing(VmiRow::name);

    private static final Comparator<MigrationRow> NEWEST_FIRST =
            Comparator.comparing(MigrationRow::created, Comparator.reverseOrder());

    private Stream<MigrationRow> migrationsOf(String namespace, String vmi) {
        return migrations.stream().filter(m -> m.namespace().equals(namespace) && m.vmi().equals(vmi)).sorted(NEWEST_FIRST);
    }

    private java.util.Optional<PdbRow> findPdb(String namespace, String name) {
        return find(pdbs, new ObjectRef(ObjectRef.Kind.PDB, namespace, name));
    }

    private String nodeNote(String name) {
        return find(nodes, ObjectRef.node(name)).map(n -> n.status() + ", " + n.vmis() + (n.vmis() == 1 ? " VMI" : " VMIs")).orElse("not listed");
    }

    private static String vmiNote(VmiRow v) {
        String phase = v.phase().isEmpty() ? "Pending" : v.phase();
        return v.node().isEmpty() ? phase : phase + " on " + v.node();
    }

    private static String podNote(PodRow p) {
        return p.node().isEmpty() ? p.phase() : p.phase() + " on " + p.node();
    }

    private static String pdbNote(PdbRow p) {
        return p.disruptionsAllowed() + " disruption" + (p.disruptionsAllowed() == 1 ? "" : "s") + " allowed"
                + (p.expandedForMigration() ? ", expanded for a migration" : "");
    }

    private static String migrationNote(MigrationRow m) {
        return m.phase() + (m.sourceNode().isEmpty() ? "" : ", " + m.sourceNode() + " → " + orDash(m.targetNode()));
    }

    private static String orDash(String s) {
        return s == null || s.isEmpty() ? "—" : s;
    }

    private static Stream<String> pdbNames(String joined) {
        return joined == null || joined.isBlank() ? Stream.empty()
                : Arrays.stream(joined.split(",")).map(String::strip).filter(s -> !s.isEmpty());
    }

    private static <R extends Row> java.util.Optional<R> find(List<R> rows, ObjectRef ref) {
        for (R r : rows) {
            if (r.ref().equals(ref)) {
                return java.util.Optional.of(r);
            }
        }
        return java.util.Optional.empty();
    }

    private static <T> void add(List<RelatedGroup> groups, String relation, Stream<T> items, Function<T, ObjectRef> ref,
                                Function<T, String> note) {
        List<T> all = items.filter(Objects::nonNull).distinct().toList();
        if (all.isEmpty()) {
            return;
        }
        List<RelatedGroup.Link> links = all.stream().limit(LIMIT).map(t -> new RelatedGroup.Link(ref.apply(t), note.apply(t))).toList();
        groups.add(new RelatedGroup(relation, links, all.size() - links.size()));
    }

}
