package dev.drainboard.controller.informers;

import dev.drainboard.kubevirt.api.MigrationPolicy;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineClusterInstancetype;
import dev.drainboard.kubevirt.api.VirtualMachineClusterPreference;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.kubevirt.api.VirtualMachineInstancetype;
import dev.drainboard.kubevirt.api.VirtualMachinePool;
import dev.drainboard.kubevirt.api.VirtualMachinePreference;
import dev.drainboard.runtime.Keys;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.SharedInformerFactory;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The informers every controller shares, one per type, all namespaces, with the indexes the controllers
 * look things up by. Built once per control plane before the factory starts, so that each type is listed
 * and watched once however many controllers (and the UI) read it.
 */
public final class SharedInformers implements AutoCloseable {

    /** Pods by the {@code namespace/name} of the VMI that controls them (launcher and migration target pods). */
    public static final String PODS_BY_VMI = "vmi";
    /** VMIMs by the {@code namespace/name} of the VMI they migrate. */
    public static final String MIGRATIONS_BY_VMI = "vmi";

    private static final String VMI_KIND = "VirtualMachineInstance";

    private final SharedIndexInformer<VirtualMachineInstance> vmis;
    private final SharedIndexInformer<VirtualMachine> vms;
    private final SharedIndexInformer<VirtualMachineInstanceMigration> migrations;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<VirtualMachineInstanceReplicaSet> replicaSets;
    private final FreshMigrations freshMigrations;
    private final SharedIndexInformer<dev.drainboard.maintenance.MaintenancePlan> maintenancePlans;
    private final OptionalInformers optional;
    private final SharedIndexInformer<VirtualMachineInstancetype> instancetypes;
    private final SharedIndexInformer<VirtualMachineClusterInstancetype> clusterInstancetypes;
    private final SharedIndexInformer<VirtualMachinePreference> preferences;
    private final SharedIndexInformer<VirtualMachineClusterPreference> clusterPreferences;
    private final SharedIndexInformer<MigrationPolicy> migrationPolicies;
    private final SharedIndexInformer<VirtualMachinePool> pools;

    /**
     * Creates (does not start) the informers: those of the kinds KubeVirt always installs on the factory
     * ({@code factory.startAllRegisteredInformers()} starts them), the others on the client ({@link #startOptional()}
     * starts each once the cluster serves its kind).
     */
    public SharedInformers(KubernetesClient client, SharedInformerFactory factory) {
        this.vmis = factory.sharedIndexInformerFor(VirtualMachineInstance.class, 0);
        this.vms = factory.sharedIndexInformerFor(VirtualMachine.class, 0);
        this.migrations = factory.sharedIndexInformerFor(VirtualMachineInstanceMigration.class, 0);
        this.pods = factory.sharedIndexInformerFor(Pod.class, 0);
        this.replicaSets = factory.sharedIndexInformerFor(VirtualMachineInstanceReplicaSet.class, 0);
        pods.addIndexers(Map.of(PODS_BY_VMI, pod -> controllingVmiKey(pod).map(List::of).orElse(List.of())));
        migrations.addIndexers(Map.of(MIGRATIONS_BY_VMI, vmim -> {
            String vmi = vmim.getSpec() == null ? null : vmim.getSpec().getVmiName();
            return vmi == null ? List.of() : List.of(Keys.of(vmim.getMetadata().getNamespace(), vmi));
        }));
        this.freshMigrations = new FreshMigrations(migrations);
        this.optional = new OptionalInformers(client);
        this.instancetypes = optional.add(VirtualMachineInstancetype.class);
        this.clusterInstancetypes = optional.add(VirtualMachineClusterInstancetype.class);
        this.preferences = optional.add(VirtualMachinePreference.class);
        this.clusterPreferences = optional.add(VirtualMachineClusterPreference.class);
        this.migrationPolicies = optional.add(MigrationPolicy.class);
        this.pools = optional.add(VirtualMachinePool.class);
        this.maintenancePlans = optional.add(dev.drainboard.maintenance.MaintenancePlan.class);
    }

    /**
     * Starts the informers of kinds a cluster may lack (instance types, migration policies, pools), each once the
     * cluster's discovery serves it, looking again every {@value OptionalInformers#RECHECK_SECONDS} s meanwhile;
     * until then its cache stays empty. Nothing waits for them to sync (they are not in {@link #all()}).
     */
    public void startOptional() {
        optional.start();
    }

    /** Stops what {@link #startOptional()} started (the factory's informers stop with the factory). */
    @Override
    public void close() {
        optional.close();
    }

    public SharedIndexInformer<VirtualMachineInstancetype> instancetypes() {
        return instancetypes;
    }

    public SharedIndexInformer<VirtualMachineClusterInstancetype> clusterInstancetypes() {
        return clusterInstancetypes;
    }

    public SharedIndexInformer<VirtualMachinePreference> preferences() {
        return preferences;
    }

    public SharedIndexInformer<VirtualMachineClusterPreference> clusterPreferences() {
        return clusterPreferences;
    }

    /** MigrationPolicies (cluster-scoped); empty where the migrations.kubevirt.io CRD is missing. */
    public SharedIndexInformer<MigrationPolicy> migrationPolicies() {
        return migrationPolicies;
    }

    /** VirtualMachinePools; empty where the pool.kubevirt.io CRD is missing. */
    public SharedIndexInformer<VirtualMachinePool> pools() {
        return pools;
    }

    /** Drainboard's maintenance plans (docs/maintenance.md), once the cluster serves their CRD. */
    public SharedIndexInformer<dev.drainboard.maintenance.MaintenancePlan> maintenancePlans() {
        return maintenancePlans;
    }

    public SharedIndexInformer<VirtualMachineInstance> vmis() {
        return vmis;
    }

    public SharedIndexInformer<VirtualMachine> vms() {
        return vms;
    }

    public SharedIndexInformer<VirtualMachineInstanceMigration> migrations() {
        return migrations;
    }

    /** The VMIM cache with this process's own writes that it does not show yet: for counting migration slots. */
    public FreshMigrations freshMigrations() {
        return freshMigrations;
    }

    public SharedIndexInformer<Pod> pods() {
        return pods;
    }

    public SharedIndexInformer<VirtualMachineInstanceReplicaSet> replicaSets() {
        return replicaSets;
    }

    /** Every informer of a kind KubeVirt always installs, e.g. to wait until all have synced. */
    public List<SharedIndexInformer<?>> all() {
        return List.of(vmis, vms, migrations, pods, replicaSets);
    }

    /** Pods controlled by a VMI of this name (any uid: callers compare the uid), from the cache. */
    public List<Pod> podsOf(String vmiKey) {
        return pods.getIndexer().byIndex(PODS_BY_VMI, vmiKey);
    }

    /** VMIMs naming this VMI, from the cache. */
    public List<VirtualMachineInstanceMigration> migrationsOf(String vmiKey) {
        return migrations.getIndexer().byIndex(MIGRATIONS_BY_VMI, vmiKey);
    }

    /** {@code namespace/name} of the VMI that is the controller owner of the object, if one is. */
    public static Optional<String> controllingVmiKey(HasMetadata object) {
        return controllerOf(object)
                .filter(ref -> VMI_KIND.equals(ref.getKind()))
                .map(ref -> Keys.of(object.getMetadata().getNamespace(), ref.getName()));
    }

    /** The owner reference with {@code controller: true}, if any. */
    public static Optional<OwnerReference> controllerOf(HasMetadata object) {
        if (object == null || object.getMetadata() == null || object.getMetadata().getOwnerReferences() == null) {
            return Optional.empty();
        }
        return object.getMetadata().getOwnerReferences().stream()
                .filter(ref -> Boolean.TRUE.equals(ref.getController()))
                .findFirst();
    }
}
