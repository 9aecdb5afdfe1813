package dev.drainboard.controller.disruptionbudget;

import dev.drainboard.kubevirt.KubeVirtDefaults;
import dev.drainboard.kubevirt.KubeVirtEventReasons;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.config.ClusterConfigSource;
import dev.drainboard.runtime.ControllerLoop;
import dev.drainboard.runtime.ControllerManager;
import dev.drainboard.runtime.EventComponents;
import dev.drainboard.runtime.EventRecorder;
import dev.drainboard.runtime.Expectations;
import dev.drainboard.runtime.Keys;
import dev.drainboard.runtime.ObjectEvents;
import dev.drainboard.runtime.LeanWrites;
import dev.drainboard.runtime.Result;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * KubeVirt's disruption budget controller as it was up to v1.5: keeps one PDB ({@code minAvailable: 1}) for every
 * VMI whose eviction strategy wants protection, deletes it when that ends, and shrinks a PDB a migration expanded
 * once the migration is over. Keys are VMI {@code namespace/name}s; the decision is
 * {@link DisruptionBudgetDecision}, this class reads the caches and applies its actions.
 *
 * <p>Wiring: {@link #register} before the manager starts its informers (it adds a PDB informer to the factory).
 */
public final class DisruptionBudgetController {

    private static final Logger LOG = LoggerFactory.getLogger(DisruptionBudgetController.class);
    public static final String NAME = "disruption-budget";
    /** PDBs by the {@code namespace/name} of the VMI that controls them. */
    private static final String BUDGETS_BY_VMI = "disruption-budget-vmi";
    /** Pods by their {@code kubevirt.io/created-by} label (the VMI uid): what a VMI's PDB selects. */
    private static final String PODS_BY_CREATOR = "disruption-budget-created-by";

    private final KubernetesClient client;
    private final LeanWrites writes;
    private final SharedIndexInformer<VirtualMachineInstance> vmis;
    private final SharedIndexInformer<PodDisruptionBudget> budgets;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<VirtualMachineInstanceMigration> migrations;
    private final ClusterConfigSource config;
    private final EventRecorder recorder;
    private final Expectations<String> expectations = new Expectations<>();
    private ControllerLoop<String> loop;

    private DisruptionBudgetController(ControllerManager manager, SharedIndexInformer<VirtualMachineInstance> vmis,
                                       SharedIndexInformer<Pod> pods,
                                       SharedIndexInformer<VirtualMachineInstanceMigration> migrations,
                                       ClusterConfigSource config) {
        this.client = manager.client();
        this.writes = new LeanWrites(client);
        this.vmis = vmis;
        this.pods = pods;
        this.migrations = migrations;
        this.config = config;
        this.budgets = manager.informer(PodDisruptionBudget.class);
        // Indexes, so a pass reads the VMI's own PDBs and pods instead of scanning its namespace.
        addIndexIfAbsent(budgets, BUDGETS_BY_VMI, pdb -> vmiKeyOf(pdb).map(List::of).orElse(List.of()));
        addIndexIfAbsent(pods, PODS_BY_CREATOR, pod -> {
            Map<String, String> labels = pod.getMetadata().getLabels();
            String uid = labels == null ? null : labels.get(KubeVirtLabels.CREATED_BY);
            return uid == null ? List.of() : List.of(Keys.of(pod.getMetadata().getNamespace(), uid));
        });
        this.recorder = manager.eventRecorder(EventComponents.DISRUPTION_BUDGET);
    }

    /**
     * Builds the controller on the shared VMI, pod and VMIM informers (all namespaces), adds a PDB informer to the
     * manager's factory (or reuses one there) and registers the loop with the manager.
     */
    public static DisruptionBudgetController register(ControllerManager manager,
                                                      SharedIndexInformer<VirtualMachineInstance> vmis,
                                                      SharedIndexInformer<Pod> pods,
                                                      SharedIndexInformer<VirtualMachineInstanceMigration> migrations,
                                                      ClusterConfigSource config) {
        DisruptionBudgetController controller = new DisruptionBudgetController(manager, vmis, pods, migrations, config);
        controller.loop = ControllerLoop.builder(NAME, controller::reconcile)
                .workers(KubeVirtDefaults.CONTROLLER_THREADS)
                .watch(vmis, Keys::of, BudgetRelevance::vmiChanged)
                .watch(controller.budgets, pdb -> DisruptionBudgets.controllingVmi(pdb)
                        .map(ref -> Keys.of(pdb.getMetadata().getNamespace(), ref.getName())).orElse(null),
                        BudgetRelevance::budgetChanged)
                .watch(pods, pod -> DisruptionBudgets.controllingVmi(pod)
                        .map(ref -> Keys.of(pod.getMetadata().getNamespace(), ref.getName())).orElse(null),
                        BudgetRelevance::podChanged)
                .watch(migrations, vmim -> vmim.getSpec() == null || vmim.getSpec().getVmiName() == null ? null
                        : Keys.of(vmim.getMetadata().getNamespace(), vmim.getSpec().getVmiName()))
                .build();
        controller.observeBudgets();
        // A new cluster default strategy changes what every VMI without its own strategy needs.
        config.addListener(c -> vmis.getStore().list().forEach(vmi -> controller.loop.enqueue(Keys.of(vmi))));
        manager.register(controller.loop);
        return controller;
    }

    public ControllerLoop<String> loop() {
        return loop;
    }

    /** The PDB informer (shared through the manager's factory), e.g. for the UI. */
    public SharedIndexInformer<PodDisruptionBudget> budgets() {
        return budgets;
    }

    private static <T> void addIndexIfAbsent(SharedIndexInformer<T> informer, String name,
                                             java.util.function.Function<T, List<String>> keys) {
        if (!informer.getIndexer().getIndexers().containsKey(name)) {
            informer.addIndexers(Map.of(name, keys));
        }
    }

    private void observeBudgets() {
        budgets.addEventHandler(ObjectEvents.<PodDisruptionBudget>handler()
                .added(pdb -> vmiKeyOf(pdb).ifPresent(expectations::creationObserved))
                .deleted(pdb -> vmiKeyOf(pdb).ifPresent(expectations::deletionObserved)));
    }

    private static Optional<String> vmiKeyOf(PodDisruptionBudget pdb) {
        return DisruptionBudgets.controllingVmi(pdb).map(ref -> Keys.of(pdb.getMetadata().getNamespace(), ref.getName()));
    }

    Result reconcile(String key) {
        if (!expectations.satisfied(key)) {
            return Result.requeue(); // our last writes have not reached the cache yet
        }
        String namespace = Keys.namespace(key);
        String name = Keys.name(key);
        VirtualMachineInstance vmi = vmis.getIndexer().getByKey(key);
        List<PodDisruptionBudget> owned = budgets.getIndexer().byIndex(BUDGETS_BY_VMI, key);
        if (vmi == null && owned.isEmpty()) {
            expectations.delete(key);
            return Result.done();
        }
        BudgetInput input = new BudgetInput(vmi, owned, config.current(), activeLauncherPods(vmi), unfinishedMigrations(namespace, name));
        List<BudgetAction> actions = DisruptionBudgetDecision.decide(input);
        Exception failure = null;
        for (BudgetAction action : actions) {
            try {
                apply(key, vmi, owned, action);
            } catch (KubernetesClientException e) {
                failure = e;
            }
        }
        return failure == null ? Result.done() : Result.error(failure);
    }

    private int activeLauncherPods(VirtualMachineInstance vmi) {
        if (vmi == null || vmi.getMetadata().getUid() == null) {
            return 0;
        }
        String uid = vmi.getMetadata().getUid();
        return (int) pods.getIndexer().byIndex(PODS_BY_CREATOR, Keys.of(vmi.getMetadata().getNamespace(), uid)).stream()
                .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null)
                .filter(pod -> {
                    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
                    return !"Succeeded".equals(phase) && !"Failed".equals(phase);
                })
                .count();
    }

    private Set<String> unfinishedMigrations(String namespace, String vmiName) {
        return migrations.getIndexer().byIndex(Cache.NAMESPACE_INDEX, namespace).stream()
                .filter(m -> m.getSpec() != null && vmiName.equals(m.getSpec().getVmiName()))
                .filter(m -> !m.isFinal())
                .map(m -> m.getMetadata().getName())
                .collect(Collectors.toSet());
    }

    private void apply(String key, VirtualMachineInstance vmi, List<PodDisruptionBudget> owned, BudgetAction action) {
        String namespace = Keys.namespace(key);
        var api = client.policy().v1().podDisruptionBudget().inNamespace(namespace);
        switch (action) {
            case BudgetAction.Create c -> {
                expectations.expectCreations(key, 1);
                try {
                    String created = writes.create(c.budget());
                    recorder.normal(vmi, KubeVirtEventReasons.SUCCESSFUL_CREATE, KubeVirtMessages.CREATED_PDB, created);
                    LOG.debug("created PodDisruptionBudget {}/{} for VMI {}", namespace, created, key);
                } catch (KubernetesClientException e) {
                    expectations.creationObserved(key); // it will never be seen
                    recorder.warning(vmi, KubeVirtEventReasons.FAILED_CREATE,
                            KubeVirtMessages.ERROR_CREATING_PDB, errorText(e));
                    throw e;
                }
            }
            case BudgetAction.Delete d -> {
                var subject = vmi != null ? vmi : formerVmi(key, owned, d.name());
                expectations.raiseExpectations(key, 0, 1);
                try {
                    api.withName(d.name()).delete();
                    recorder.normal(subject, KubeVirtEventReasons.SUCCESSFUL_DELETE,
                            KubeVirtMessages.DELETED_PDB, d.name());
                    LOG.info("deleted PodDisruptionBudget {}/{} of VMI {}: {}", namespace, d.name(), key, d.reason().text());
                } catch (KubernetesClientException e) {
                    expectations.deletionObserved(key);
                    recorder.warning(subject, KubeVirtEventReasons.FAILED_DELETE,
                            KubeVirtMessages.ERROR_DELETING_PDB, d.name(), errorText(e));
                    throw e;
                }
            }
            case BudgetAction.Shrink s -> {
                try {
                    api.withName(s.name()).patch(PatchContext.of(PatchType.JSON), DisruptionBudgets.shrinkPatch(s.migrationName()));
                    recorder.normal(vmi, KubeVirtEventReasons.SUCCESSFUL_UPDATE,
                            KubeVirtMessages.SHRANK_PDB, s.name());
                } catch (KubernetesClientException e) {
                    if (alreadyShrunk(api.withName(s.name()).get(), s.migrationName())) {
                        // The cache had not seen our own earlier shrink yet: the patch's guard refused to do it twice.
                        LOG.debug("PodDisruptionBudget {}/{} was already shrunk after migration {}", namespace, s.name(), s.migrationName());
                        return;
                    }
                    recorder.warning(vmi, KubeVirtEventReasons.FAILED_UPDATE,
                            KubeVirtMessages.ERROR_SHRINKING_PDB, s.name(), errorText(e));
                    throw e;
                }
            }
        }
    }

    /** Gone, or no longer expanded for that migration. */
    private static boolean alreadyShrunk(PodDisruptionBudget live, String migrationName) {
        return live == null || !DisruptionBudgets.migrationName(live).filter(migrationName::equals).isPresent();
    }

    /** The VMI a PDB was kept for, rebuilt from its owner reference: events of a deleted VMI still name it. */
    private static VirtualMachineInstance formerVmi(String key, List<PodDisruptionBudget> owned, String pdbName) {
        Optional<OwnerReference> ref = owned.stream().filter(p -> pdbName.equals(p.getMetadata().getName())).findFirst()
                .flatMap(DisruptionBudgets::controllingVmi);
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        vmi.setMetadata(new ObjectMetaBuilder()
                .withNamespace(Keys.namespace(key))
                .withName(Keys.name(key))
                .withUid(ref.map(OwnerReference::getUid).orElse(null))
                .build());
        return vmi;
    }

    private static String errorText(KubernetesClientException e) {
        return e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
    }
}
