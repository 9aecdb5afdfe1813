package dev.drainboard.ui.model;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The details pane's related objects, from rows alone: a drain in progress where "database" migrates from node01 to
 * node02 (its old launcher pod on node01, the target pod on node02), protected by its KubeVirt PDB; "web" belongs
 * to a VM, "pool-1" to a replica set.
 */
class RelationsTest {

    private static final List<NodeRow> NODES = List.of(node("node01"), node("node02"));
    private static final List<VmiRow> VMIS = List.of(
            vmi("database", "node01", "kubevirt-disruption-budget-db", null),
            vmi("web", "node02", "", new ObjectRef(ObjectRef.Kind.VM, "demo", "web")),
            vmi("pool-1", "node02", "", new ObjectRef(ObjectRef.Kind.VMIRS, "demo", "pool")));
    private static final List<PodRow> PODS = List.of(
            new PodRow("demo", "virt-launcher-database-aaaaa", "database", "node01", "Running", "", "2026-11-22T03:00:00Z"),
            new PodRow("demo", "virt-launcher-database-bbbbb", "database", "node02", "Running", "uid-mig", "2026-11-22T03:05:00Z"),
            new PodRow("demo", "virt-launcher-web-ccccc", "web", "node02", "Running", "", "2026-11-22T03:00:00Z"));
    private static final List<PdbRow> PDBS = List.of(new PdbRow("demo", "kubevirt-disruption-budget-db",
            "kubevirt.io/created-by=uid-db", "2", "", 0, 2, 2, 2, "VirtualMachineInstance/database", true, ""));
    private static final List<MigrationRow> MIGRATIONS = List.of(new MigrationRow("demo", "kubevirt-evacuation-xyz",
            "uid-mig", "database", "Running", "node01", "node02", "virt-launcher-database-aaaaa",
            "virt-launcher-database-bbbbb", "node drain taint", "", "", "2026-11-22T03:05:00Z", null, null, null, ""));
    private static final List<ReplicaSetRow> RSS = List.of(new ReplicaSetRow("demo", "pool", 1, 1, 1, false, "", ""));

    private final Relations relations = new Relations(NODES, VMIS, PODS, PDBS, MIGRATIONS, RSS);

    /** Relation → related object names, as the pane lists them. */
    private Map<String, String> related(ObjectRef.Kind kind, String namespace, String name) {
        return relations.of(new ObjectRef(kind, namespace, name)).stream().collect(Collectors.toMap(RelatedGroup::relation,
                g -> g.links().stream().map(l -> l.ref().kind() + ":" + l.ref().name()).collect(Collectors.joining(" ")),
                (a, b) -> a, java.util.LinkedHashMap::new));
    }

    @ParameterizedTest(name = "{0} {1}: {2} → {3}")
    @CsvSource(delimiter = '|', value = {
            "VMI   | database                     | Node          | NODE:node01",
            "VMI   | database                     | Launcher pods | POD:virt-launcher-database-bbbbb POD:virt-launcher-database-aaaaa",
            "VMI   | database                     | Protected by  | PDB:kubevirt-disruption-budget-db",
            "VMI   | database                     | Migrations    | VMIM:kubevirt-evacuation-xyz",
            "VMI   | web                          | Owner         | VM:web",
            "VMI   | pool-1                       | Owner         | VMIRS:pool",
            "POD   | virt-launcher-database-bbbbb | VMI           | VMI:database",
            "POD   | virt-launcher-database-bbbbb | Node          | NODE:node02",
            "POD   | virt-launcher-database-bbbbb | Target of     | VMIM:kubevirt-evacuation-xyz",
            "POD   | virt-launcher-database-aaaaa | Protected by  | PDB:kubevirt-disruption-budget-db",
            "VMIM  | kubevirt-evacuation-xyz      | VMI           | VMI:database",
            "VMIM  | kubevirt-evacuation-xyz      | Source node   | NODE:node01",
            "VMIM  | kubevirt-evacuation-xyz      | Target node   | NODE:node02",
            "VMIM  | kubevirt-evacuation-xyz      | Pods          | POD:virt-launcher-database-aaaaa POD:virt-launcher-database-bbbbb",
            "VMIM  | kubevirt-evacuation-xyz      | Protected by  | PDB:kubevirt-disruption-budget-db",
            "PDB   | kubevirt-disruption-budget-db | Protects     | VMI:database",
            "PDB   | kubevirt-disruption-budget-db | Launcher pods | POD:virt-launcher-database-aaaaa POD:virt-launcher-database-bbbbb",
            "VMIRS | pool                         | Instances     | VMI:pool-1",
            "VM    | web                          | Instance      | VMI:web",
    })
    void eachKindLeadsToItsNeighbours(ObjectRef.Kind kind, String name, String relation, String expected) {
        assertThat(related(kind, "demo", name)).containsEntry(relation, expected);
    }

    @Test
    void aNodeListsItsVmisAndMigrationsBothWays() {
        assertThat(related(ObjectRef.Kind.NODE, "", "node01")).containsExactly(
                Map.entry("VMIs", "VMI:database"),
                Map.entry("Migrations out", "VMIM:kubevirt-evacuation-xyz"));
        assertThat(related(ObjectRef.Kind.NODE, "", "node02")).containsExactly(
                Map.entry("VMIs", "VMI:pool-1 VMI:web"),
                Map.entry("Migrations in", "VMIM:kubevirt-evacuation-xyz"));
    }

    @Test
    void longRelationsListAFewAndCountTheRest() {
        List<VmiRow> many = new ArrayList<>();
        for (int i = 0; i < Relations.LIMIT + 5; i++) {
            many.add(vmi("vm-%02d".formatted(i), "node01", "", null));
        }
        RelatedGroup vmis = new Relations(NODES, many, List.of(), List.of(), List.of(), List.of())
                .of(ObjectRef.node("node01")).getFirst();

        assertThat(vmis.links()).hasSize(Relations.LIMIT);
        assertThat(vmis.more()).isEqualTo(5);
        assertThat(vmis.links().getFirst().note()).isEqualTo("Running on node01");
    }

    @Test
    void objectsThatAreGoneOrUnrelatedHaveNoLinks() {
        assertThat(relations.of(new ObjectRef(ObjectRef.Kind.VMI, "demo", "deleted"))).isEmpty();
        assertThat(relations.of(new ObjectRef(ObjectRef.Kind.VMI, "other", "database"))).isEmpty();
        assertThat(relations.of(new ObjectRef(ObjectRef.Kind.EVENT, "demo", "x"))).isEmpty();
    }

    @Test
    void podsAndVmsHaveFactsOfTheirOwnForThePaneToShowInPlace() {
        assertThat(relations.factsOf(new ObjectRef(ObjectRef.Kind.POD, "demo", "virt-launcher-database-bbbbb")))
                .containsExactly(Map.entry("Phase", "Running"), Map.entry("Node", "node02"), Map.entry("VMI", "database"),
                        Map.entry("Role", "migration target"));
        assertThat(relations.factsOf(new ObjectRef(ObjectRef.Kind.VM, "demo", "web")))
                .containsExactly(Map.entry("Instance", "web — Running on node02"));
    }

    private static NodeRow node(String name) {
        return new NodeRow(name, NodeRow.Readiness.READY, false, List.of(), false, "<none>", "", "", 1, 1, 1, 0, 4000, 0, 8L << 30, "");
    }

    private static VmiRow vmi(String name, String node, String pdbs, ObjectRef owner) {
        return new VmiRow("demo", name, "Running", node, "LiveMigrate", "VMI", "True", "", "", pdbs, "", "", owner);
    }
}
