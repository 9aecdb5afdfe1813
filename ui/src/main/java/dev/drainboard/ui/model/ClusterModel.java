package dev.drainboard.ui.model;

import dev.drainboard.controller.disruptionbudget.DisruptionBudgetDecision;
import dev.drainboard.controller.disruptionbudget.DisruptionBudgets;
import dev.drainboard.controller.migration.MigrationTimings;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.api.MigrationPhase;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.kubevirt.config.InvalidClusterConfigException;
import dev.drainboard.ops.WhyPendingDecision;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.ObservableList;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The cluster as the console sees it: informer caches turned into immutable rows in FX lists.
 *
 * <p>How data flows, and why it stays smooth with thousands of objects changing:
 * <ol>
 *   <li>Informer callbacks (fabric8 threads) only mark keys dirty, including the keys of rows derived from the
 *       changed object (a pod marks its node, a PDB marks the VMIs of its namespace).</li>
 *   <li>One projector thread, at most once per frame (16 ms), turns the dirty keys into rows by reading the
 *       informer caches, and hands the whole batch to the FX thread with a single {@code Platform.runLater}.</li>
 *   <li>While that batch waits for the FX thread, no second one is sent; changes keep collecting and go with
 *       the next. So the FX thread applies at most one batch per pulse and never waits on I/O.</li>
 * </ol>
 * Views read the lists (unmodifiable) and the properties; they never see a fabric8 object.
 */
public final class ClusterModel implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ClusterModel.class.getName());
    private static final long FRAME_MS = 16;
    private static final String BY_NODE = "node";
    private static final String BY_VMI = "vmi";
    private static final String BY_UID = "uid";
    private static final String BY_TARGET = "protects";
    private static final String BY_MIGRATION = "migration";

    private enum Table { NODES, VMIS, VMS, PODS, STRANDED_PODS, PDBS, MIGRATIONS, REPLICA_SETS, EVENTS }

    private final KubernetesClient client;
    private final boolean kubeVirt;
    private final Executor fx;
    private final ScheduledExecutorService projector;
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

    private final SharedIndexInformer<Node> nodeInformer;
    private final SharedIndexInformer<Pod> podInformer;
    private final SharedIndexInformer<PodDisruptionBudget> pdbInformer;
    private final SharedIndexInformer<Event> eventInformer;
    private SharedIndexInformer<VirtualMachineInstance> vmiInformer;
    private SharedIndexInformer<VirtualMachine> vmInformer;
    private SharedIndexInformer<VirtualMachineInstanceMigration> vmimInformer;
    private SharedIndexInformer<VirtualMachineInstanceReplicaSet> vmirsInformer;
    private SharedIndexInformer<KubeVirt> kubeVirtInformer;

    // Off the FX thread: what changed since the last batch.
    private final Map<Table, Set<String>> dirty = new EnumMap<>(Table.class);
    private final AtomicBoolean flushScheduled = new AtomicBoolean();
    private final AtomicBoolean batchInFlight = new AtomicBoolean();
    private volatile boolean settingsDirty = true;
    /** A migration or a target pod changed: every migration not yet under way is projected again (why it waits). */
    private volatile boolean waitingDirty;
    // Projector thread only: the cluster as the why-pending decision reads it, built once per batch when needed.
    private WhyPendingDecision.Cluster waitingCluster;
    private volatile ClusterConfig config = ClusterConfig.defaults();
    // Projector thread only: each migration's last transfer sample, to tell whether remaining data grew since.
    private final Map<String, TransferProgress> lastTransfer = new HashMap<>();
    // Projector thread only: each migration's last row, and the deleted ones still shown (cancelled, failed).
    private final Map<String, MigrationRow> lastMigrationRow = new HashMap<>();
    private final java.util.LinkedHashMap<String, MigrationRow> endedMigrations = new java.util.LinkedHashMap<>();
    /** Deleted migrations kept in the list, newest kept. */
    static final int ENDED_MIGRATIONS_KEPT = 50;
    private volatile ConnectionState lastState = ConnectionState.SYNCING;
    /** The latest list/watch failure, "Kind: cause", for the status bar's "Reconnecting" (projector and informer threads). */
    private volatile String lastWatchError = "";
    private volatile String lastReasonSent = "";
    private final javafx.beans.property.ReadOnlyStringWrapper reconnectReason = new javafx.beans.property.ReadOnlyStringWrapper("");
    private volatile boolean closed;
    private volatile boolean syncedSent;

    // FX thread only.
    private final Map<Table, RowTable<? extends Row>> tables = new EnumMap<>(Table.class);
    private final RowTable<NodeRow> nodes = new RowTable<>();
    private final RowTable<VmiRow> vmis = new RowTable<>();
    private final RowTable<VmRow> vms = new RowTable<>();
    private final RowTable<PdbRow> pdbs = new RowTable<>();
    private final RowTable<MigrationRow> migrations = new RowTable<>();
    private final RowTable<ReplicaSetRow> replicaSets = new RowTable<>();
    private final RowTable<EventRow> events = new RowTable<>();
    private final RowTable<PodRow> pods = new RowTable<>();
    private final RowTable<StrandedPodRow> strandedPods = new RowTable<>();
    private final Relations relations = new Relations(nodes.readOnly(), vmis.readOnly(), pods.readOnly(),
            pdbs.readOnly(), migrations.readOnly(), replicaSets.readOnly());
    private final ReadOnlyObjectWrapper<ConnectionState> state = new ReadOnlyObjectWrapper<>(ConnectionState.SYNCING);
    private final ReadOnlyObjectWrapper<KubeVirtSettings> settings =
            new ReadOnlyObjectWrapper<>(RowMapping.settings(ClusterConfig.defaults()));
    private final ReadOnlyBooleanWrapper synced = new ReadOnlyBooleanWrapper();
    private final javafx.beans.property.StringProperty namespaceScope = new javafx.beans.property.SimpleStringProperty(this, "namespaceScope", "");

    /**
     * Starts the informers (without waiting for them) and the projector.
     *
     * @param kubeVirt whether the cluster serves the kubevirt.io API; without it only core objects are watched
     */
    public static ClusterModel start(KubernetesClient client, boolean kubeVirt) {
        warmDecoding(client, kubeVirt);
        return new ClusterModel(client, kubeVirt, Platform::runLater);
    }

    /**
     * Builds the client's JSON decoders of every watched kind here, on the caller's thread. fabric8 decodes a response
     * on the Vert.x event loop that received it, and the first decode of a kind builds its decoder (loading and
     * introspecting the model's classes): at a cold start on a loaded machine the informers' first lists held an
     * event loop past Vert.x's 2 s limit. Built once here, the event loop only decodes.
     */
    static void warmDecoding(KubernetesClient client, boolean kubeVirt) {
        var serialization = client.getKubernetesSerialization();
        List<Class<?>> kinds = new ArrayList<>(List.of(io.fabric8.kubernetes.api.model.NodeList.class,
                io.fabric8.kubernetes.api.model.PodList.class, io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetList.class,
                io.fabric8.kubernetes.api.model.EventList.class));
        if (kubeVirt) {
            kinds.addAll(List.of(VirtualMachineInstance.class, VirtualMachine.class, VirtualMachineInstanceMigration.class,
                    VirtualMachineInstanceReplicaSet.class, KubeVirt.class));
        }
        for (Class<?> kind : kinds) {
            try {
                serialization.unmarshal("{}", kind);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "decoder of " + kind.getSimpleName() + " not built ahead", e);
            }
        }
    }

    ClusterModel(KubernetesClient client, boolean kubeVirt, Executor fx) {
        this.client = client;
        this.kubeVirt = kubeVirt;
        this.fx = fx;
        for (Table t : Table.values()) {
            dirty.put(t, ConcurrentHashMap.newKeySet());
        }
        tables.put(Table.NODES, nodes);
        tables.put(Table.VMIS, vmis);
        tables.put(Table.VMS, vms);
        tables.put(Table.PDBS, pdbs);
        tables.put(Table.MIGRATIONS, migrations);
        tables.put(Table.REPLICA_SETS, replicaSets);
        tables.put(Table.EVENTS, events);
        tables.put(Table.PODS, pods);
        tables.put(Table.STRANDED_PODS, strandedPods);
        projector = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("cluster-model").factory());

        nodeInformer = informer(client.nodes().runnableInformer(0), Map.of(), new Handler<>(n -> markNode(n.getMetadata().getName())));
        podInformer = informer(client.pods().inAnyNamespace().runnableInformer(0),
                Map.of(BY_NODE, p -> p.getSpec() == null || p.getSpec().getNodeName() == null ? List.of() : List.of(p.getSpec().getNodeName()),
                        BY_MIGRATION, ClusterModel::migrationOf),
                new Handler<>(p -> {
                    markNode(p.getSpec() == null ? null : p.getSpec().getNodeName());
                    mark(Table.PODS, key(p));
                    mark(Table.STRANDED_PODS, key(p));
                    if (!migrationOf(p).isEmpty()) {
                        waitingDirty = true; // a target pod scheduled or not: its migration's why changes
                        requestFlush();
                    }
                }));
        pdbInformer = informer(client.policy().v1().podDisruptionBudget().inAnyNamespace().runnableInformer(0),
                Map.of(BY_TARGET, PdbTargets::keys),
                new Handler<>(p -> {
                    waitingDirty = true; // its expansion for a migration changes why that one waits
                    mark(Table.PDBS, key(p));
                    markVmisProtectedBy(p);
                }));
        eventInformer = informer(client.v1().events().inAnyNamespace().runnableInformer(0), Map.of(),
                new Handler<>(e -> mark(Table.EVENTS, key(e))));
        if (kubeVirt) {
            vmiInformer = informer(client.resources(VirtualMachineInstance.class).inAnyNamespace().runnableInformer(0),
                    Map.of(BY_NODE, v -> v.getStatus() == null || v.getStatus().getNodeName() == null ? List.of() : List.of(v.getStatus().getNodeName()),
                            BY_UID, v -> v.getMetadata().getUid() == null ? List.of() : List.of(v.getMetadata().getUid())),
                    new Handler<>(v -> {
                        mark(Table.VMIS, key(v));
                        mark(Table.VMS, key(v)); // a VM's VMI has its name: its node and phase show on the VM's row
                        markNode(v.getStatus() == null ? null : v.getStatus().getNodeName());
                    }));
            vmInformer = informer(client.resources(VirtualMachine.class).inAnyNamespace().runnableInformer(0), Map.of(),
                    new Handler<>(v -> mark(Table.VMS, key(v))));
            vmimInformer = informer(client.resources(VirtualMachineInstanceMigration.class).inAnyNamespace().runnableInformer(0),
                    Map.of(BY_VMI, m -> m.getSpec() == null || m.getSpec().getVmiName() == null ? List.of()
                            : List.of(m.getMetadata().getNamespace() + "/" + m.getSpec().getVmiName())),
                    new Handler<>(m -> {
                        waitingDirty = true; // a slot taken or freed changes why the others wait
                        mark(Table.MIGRATIONS, key(m));
                        if (m.getSpec() != null && m.getSpec().getVmiName() != null) {
                            mark(Table.VMIS, m.getMetadata().getNamespace() + "/" + m.getSpec().getVmiName());
                        }
                    }));
            vmirsInformer = informer(client.resources(VirtualMachineInstanceReplicaSet.class).inAnyNamespace().runnableInformer(0),
                    Map.of(), new Handler<>(r -> mark(Table.REPLICA_SETS, key(r))));
            kubeVirtInformer = informer(client.resources(KubeVirt.class).inAnyNamespace().runnableInformer(0), Map.of(),
                    new Handler<>(k -> kubeVirtChanged()));
        }
        informers.forEach(SharedIndexInformer::start);
        projector.scheduleWithFixedDelay(this::checkConnection, 250, 500, TimeUnit.MILLISECONDS);
    }

    public ObservableList<NodeRow> nodes() {
        return nodes.readOnly();
    }

    public ObservableList<VmiRow> vmis() {
        return vmis.readOnly();
    }

    public ObservableList<VmRow> vms() {
        return vms.readOnly();
    }

    public ObservableList<PdbRow> pdbs() {
        return pdbs.readOnly();
    }

    public ObservableList<MigrationRow> migrations() {
        return migrations.readOnly();
    }

    public ObservableList<ReplicaSetRow> replicaSets() {
        return replicaSets.readOnly();
    }

    public ObservableList<EventRow> events() {
        return events.readOnly();
    }

    /** Pods other than VMIs' launchers that have nowhere to run (their VMIs say so themselves). */
    public ObservableList<StrandedPodRow> strandedPods() {
        return strandedPods.readOnly();
    }

    /** VMIs' launcher pods (pods owned by a VMI); other pods are not kept as rows. */
    public ObservableList<PodRow> launcherPods() {
        return pods.readOnly();
    }

    /**
     * The namespace the lists show, "" for all of them: the shell's namespace picker sets it, every namespaced list
     * (VMIs, migrations, PDBs, replica sets, events, pods) follows it; node rows and their counts ignore it.
     */
    public javafx.beans.property.StringProperty namespaceScope() {
        return namespaceScope;
    }

    /** The namespaces the cluster's pods, VMIs, PDBs and events are in, sorted (read from the informers' caches). */
    public List<String> namespaces() {
        java.util.TreeSet<String> found = new java.util.TreeSet<>();
        List<SharedIndexInformer<?>> namespaced = new ArrayList<>(List.of(podInformer, pdbInformer, eventInformer));
        if (vmiInformer != null) {
            namespaced.add(vmiInformer);
            namespaced.add(vmimInformer);
            namespaced.add(vmirsInformer);
        }
        for (SharedIndexInformer<?> informer : namespaced) {
            for (String key : informer.getStore().listKeys()) {
                int slash = key.indexOf('/');
                if (slash > 0) {
                    found.add(key.substring(0, slash));
                }
            }
        }
        return List.copyOf(found);
    }

    /**
     * The kind of a pod's controller ({@code ReplicaSet}, {@code DaemonSet}, {@code Job}, …), "Node" for a static
     * (mirror) pod, "" for a pod no controller owns or one not in the cache. Any thread.
     */
    public String podOwnerKind(String namespace, String name) {
        Pod pod = podInformer.getStore().getByKey(namespace + "/" + name);
        if (pod == null || pod.getMetadata() == null) {
            return "";
        }
        if (pod.getMetadata().getAnnotations() != null
                && pod.getMetadata().getAnnotations().containsKey("kubernetes.io/config.mirror")) {
            return "Node";
        }
        if (pod.getMetadata().getOwnerReferences() == null) {
            return "";
        }
        return pod.getMetadata().getOwnerReferences().stream()
                .filter(o -> Boolean.TRUE.equals(o.getController()))
                .map(io.fabric8.kubernetes.api.model.OwnerReference::getKind)
                .findFirst().orElse("");
    }

    /** What relates to what, from these lists (FX thread). */
    public Relations relations() {
        return relations;
    }

    /** Whether the cluster serves KubeVirt's API; without it the VMI, migration and replica-set lists stay empty. */
    public boolean kubeVirtAvailable() {
        return kubeVirt;
    }

    /**
     * Why the state is RECONNECTING: which watches are down and the last error the API answered (or the connection
     * failed with); empty otherwise. FX thread.
     */
    public javafx.beans.property.ReadOnlyStringProperty reconnectReason() {
        return reconnectReason.getReadOnlyProperty();
    }

    /** "Watches of Pod, Node down: Pod: connection refused" — the kinds whose watch is down, then the last cause. */
    static String reconnectReason(List<String> down, String lastError) {
        String which = down.isEmpty() ? "a watch dropped" : (down.size() == 1 ? "watch of " : "watches of ")
                + String.join(", ", down) + " down";
        return lastError == null || lastError.isEmpty() ? which : which + " (" + lastError + ")";
    }

    /** An exception's root cause in one line (fabric8's messages of API errors end in a Status dump). */
    static String oneLine(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (t instanceof io.fabric8.kubernetes.client.KubernetesClientException e && e.getStatus() != null
                && e.getStatus().getMessage() != null) {
            return "HTTP " + e.getCode() + " " + e.getStatus().getMessage();
        }
        String m = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    public ReadOnlyObjectProperty<ConnectionState> connectionState() {
        return state.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<KubeVirtSettings> kubeVirtSettings() {
        return settings.getReadOnlyProperty();
    }

    /** True once every informer has listed once (the lists are complete). */
    public ReadOnlyBooleanProperty synced() {
        return synced.getReadOnlyProperty();
    }

    /** The object's YAML as the API server has it (without managedFields), read off the FX thread. */
    public CompletableFuture<String> yaml(ObjectRef ref) {
        if (closed) {
            return CompletableFuture.completedFuture("# disconnected: " + ref + " is no longer watched.");
        }
        try {
            return readYaml(ref);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // Closed between the check and the submission (a details pane refreshing as the connection closes).
            return CompletableFuture.completedFuture("# disconnected: " + ref + " is no longer watched.");
        }
    }

    private CompletableFuture<String> readYaml(ObjectRef ref) {
        return CompletableFuture.supplyAsync(() -> {
            Optional<? extends HasMetadata> object = Optional.ofNullable(informerFor(ref.kind()))
                    .map(i -> (HasMetadata) i.getStore().getByKey(ref.key()));
            if (object.isEmpty()) {
                return "# " + ref + " is not in the cache (deleted, or not watched).";
            }
            HasMetadata copy = client.getKubernetesSerialization().clone(object.get());
            copy.getMetadata().setManagedFields(null);
            return client.getKubernetesSerialization().asYaml(copy);
        }, projector);
    }

    private SharedIndexInformer<?> informerFor(ObjectRef.Kind kind) {
        return switch (kind) {
            case NODE -> nodeInformer;
            case POD -> podInformer;
            case PDB -> pdbInformer;
            case EVENT -> eventInformer;
            case VMI -> vmiInformer;
            case VM -> vmInformer;
            case VMIM -> vmimInformer;
            case VMIRS -> vmirsInformer;
            case KUBEVIRT -> kubeVirtInformer;
            case DRAIN_RECORD -> null; // read by the History view, not watched here
        };
    }

    private <T extends HasMetadata> SharedIndexInformer<T> informer(SharedIndexInformer<T> informer,
                                                                    Map<String, Function<T, List<String>>> indexers,
                                                                    Handler<T> handler) {
        if (!indexers.isEmpty()) {
            informer.addIndexers(indexers);
        }
        informer.addEventHandler(handler);
        // Keep retrying with the informer's back-off: a cluster that is down now may be back in a minute.
        informer.exceptionHandler((started, t) -> {
            LOG.log(Level.FINE, "informer error, retrying", t);
            lastWatchError = informer.getApiTypeClass().getSimpleName() + ": " + oneLine(t);
            return !closed;
        });
        informers.add(informer);
        return informer;
    }

    /** Marks the keys an object affects, for its old and its new state. */
    private final class Handler<T> implements ResourceEventHandler<T> {
        private final java.util.function.Consumer<T> marker;

        Handler(java.util.function.Consumer<T> marker) {
            this.marker = marker;
        }

        @Override
        public void onAdd(T obj) {
            changed(obj);
        }

        @Override
        public void onUpdate(T oldObj, T newObj) {
            marker.accept(oldObj);
            changed(newObj);
        }

        @Override
        public void onDelete(T obj, boolean deletedFinalStateUnknown) {
            changed(obj);
        }

        private void changed(T obj) {
            marker.accept(obj);
            requestFlush();
        }
    }

    private void mark(Table table, String key) {
        dirty.get(table).add(key);
    }

    private void markNode(String nodeName) {
        if (nodeName != null && !nodeName.isEmpty()) {
            mark(Table.NODES, nodeName);
        }
    }

    /** The VMIs whose PDB column may change with this PDB: its own VMI, or its whole namespace for a broad selector. */
    private void markVmisProtectedBy(PodDisruptionBudget pdb) {
        if (vmiInformer == null) {
            return;
        }
        for (String target : PdbTargets.keys(pdb)) {
            String index = target.equals(PdbTargets.anyIn(pdb.getMetadata().getNamespace())) ? Cache.NAMESPACE_INDEX : BY_UID;
            String value = index.equals(BY_UID) ? target : pdb.getMetadata().getNamespace();
            vmiInformer.getIndexer().byIndex(index, value).forEach(v -> mark(Table.VMIS, key(v)));
        }
    }

    private void kubeVirtChanged() {
        try {
            config = ClusterConfig.select(kubeVirtInformer.getStore().list(), "kubevirt")
                    .map(this::configOf).orElse(ClusterConfig.defaults());
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "KubeVirt CR unusable, keeping the last configuration", e);
        }
        settingsDirty = true;
        vmiInformer.getStore().list().forEach(v -> mark(Table.VMIS, key(v)));
    }

    private ClusterConfig configOf(KubeVirt kubeVirt) {
        try {
            // The same resolver as the controllers: the CR's reported version, else the virt-controller image's tag.
            String image = ClusterConfig.reportsVersion(kubeVirt) ? null
                    : dev.drainboard.kubevirt.config.VirtControllerImage.read(client, kubeVirt.getMetadata().getNamespace()).orElse(null);
            return ClusterConfig.from(kubeVirt, image);
        } catch (InvalidClusterConfigException e) {
            // KubeVirt keeps the last good configuration when a new one is invalid; so do we.
            return config;
        }
    }

    private static String key(HasMetadata object) {
        String ns = object.getMetadata().getNamespace();
        return ns == null || ns.isEmpty() ? object.getMetadata().getName() : ns + "/" + object.getMetadata().getName();
    }

    private void requestFlush() {
        if (!closed && flushScheduled.compareAndSet(false, true)) {
            projector.schedule(this::flush, FRAME_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** Projector thread: turns dirty keys into rows and sends them to the FX thread as one batch. */
    private void flush() {
        flushScheduled.set(false);
        if (closed) {
            return;
        }
        if (!batchInFlight.compareAndSet(false, true)) {
            return; // The FX thread has not applied the last batch; it asks again when it has.
        }
        try {
            Map<Table, Map<String, Optional<Row>>> batch = new EnumMap<>(Table.class);
            project(Table.NODES, nodeInformer, this::nodeRow, batch);
            project(Table.PDBS, pdbInformer, RowMapping::pdbRow, batch);
            project(Table.EVENTS, eventInformer, RowMapping::eventRow, batch);
            project(Table.STRANDED_PODS, podInformer, RowMapping::strandedPodRow, batch);
            if (kubeVirt) {
                project(Table.PODS, podInformer, RowMapping::podRow, batch);
                project(Table.VMIS, vmiInformer, this::vmiRow, batch);
                project(Table.VMS, vmInformer, vm -> RowMapping.vmRow(vm, vmiInformer.getStore().getByKey(key(vm))), batch);
                if (waitingDirty) {
                    waitingDirty = false;
                    for (VirtualMachineInstanceMigration m : vmimInformer.getStore().list()) {
                        if (!m.isFinal() && m.phase().map(p -> p == MigrationPhase.PENDING || p == MigrationPhase.SCHEDULING).orElse(true)) {
                            dirty.get(Table.MIGRATIONS).add(key(m));
                        }
                    }
                }
                waitingCluster = null;
                project(Table.MIGRATIONS, vmimInformer, this::migrationRow, batch);
                keepEndedMigrations(batch.get(Table.MIGRATIONS));
                lastTransfer.keySet().removeIf(k -> vmimInformer.getStore().getByKey(k) == null);
                project(Table.REPLICA_SETS, vmirsInformer, RowMapping::replicaSetRow, batch);
            }
            KubeVirtSettings newSettings = settingsDirty ? RowMapping.settings(config) : null;
            settingsDirty = false;
            boolean allSynced = informers.stream().allMatch(SharedIndexInformer::hasSynced);
            syncedSent = allSynced;
            fx.execute(() -> applyBatch(batch, newSettings, allSynced));
        } catch (RuntimeException e) {
            batchInFlight.set(false);
            LOG.log(Level.WARNING, "projecting rows failed", e);
        }
    }

    private <T extends HasMetadata> void project(Table table, SharedIndexInformer<T> informer, Function<T, Row> toRow,
                                                 Map<Table, Map<String, Optional<Row>>> batch) {
        Set<String> keys = dirty.get(table);
        if (keys.isEmpty()) {
            return;
        }
        Map<String, Optional<Row>> changes = new HashMap<>();
        for (var it = keys.iterator(); it.hasNext(); ) {
            String key = it.next();
            it.remove();
            T object = informer.getStore().getByKey(key);
            // A null row means "not shown" (a pod no VMI owns): treated like a deleted object.
            changes.put(key, object == null ? Optional.empty() : Optional.ofNullable(toRow.apply(object)));
        }
        batch.put(table, changes);
    }

    private Row nodeRow(Node node) {
        String name = node.getMetadata().getName();
        List<Pod> pods = podInformer.getIndexer().byIndex(BY_NODE, name);
        int vmisOnNode = vmiInformer == null ? 0 : RowMapping.vmisHoldingNode(vmiInformer.getIndexer().byIndex(BY_NODE, name));
        return RowMapping.nodeRow(node, pods, vmisOnNode);
    }

    /**
     * A cancelled migration's VMIM is deleted, and KubeVirt garbage-collects all but the newest finished ones: the
     * list keeps showing what was cancelled or failed ({@link MigrationRow#afterDeletion}), the newest
     * {@value #ENDED_MIGRATIONS_KEPT}, for as long as the console runs.
     */
    private void keepEndedMigrations(Map<String, Optional<Row>> changes) {
        if (changes == null) {
            return;
        }
        for (var change : new ArrayList<>(changes.entrySet())) {
            String key = change.getKey();
            if (change.getValue().isPresent()) {
                if (change.getValue().get() instanceof MigrationRow row) {
                    lastMigrationRow.put(key, row);
                    endedMigrations.remove(key); // a new VMIM of the same name
                }
                continue;
            }
            MigrationRow last = lastMigrationRow.remove(key);
            MigrationRow ended = last == null ? null : last.afterDeletion(Instant.now());
            if (ended != null) {
                endedMigrations.put(key, ended);
                changes.put(key, Optional.of(ended));
            }
        }
        while (endedMigrations.size() > ENDED_MIGRATIONS_KEPT) {
            String oldest = endedMigrations.keySet().iterator().next();
            endedMigrations.remove(oldest);
            changes.put(oldest, Optional.empty());
        }
    }

    private Row migrationRow(VirtualMachineInstanceMigration vmim) {
        String key = key(vmim);
        MigrationRow row = RowMapping.migrationRow(vmim, lastTransfer.get(key));
        if (vmim.getMetadata().getDeletionTimestamp() != null) {
            // Deleted (cancelled): KubeVirt fails or aborts it before letting it go; it is shown as what it is.
            row = row.asCancelled(Instant.now());
        }
        if (row.progress() != null) {
            lastTransfer.put(key, row.progress());
        }
        return row.withWaiting(waitingFor(vmim));
    }

    /** Why a migration has not started, by the controllers' own rules; empty once it is under way. */
    private String waitingFor(VirtualMachineInstanceMigration vmim) {
        if (vmim.isFinal() || vmim.getSpec() == null || vmim.getSpec().getVmiName() == null) {
            return "";
        }
        VirtualMachineInstance vmi = vmiInformer.getStore().getByKey(vmim.getMetadata().getNamespace() + "/" + vmim.getSpec().getVmiName());
        if (vmi == null) {
            return "";
        }
        if (waitingCluster == null) {
            Map<String, String> vmiNodes = new HashMap<>();
            for (VirtualMachineInstance v : vmiInformer.getStore().list()) {
                if (v.getStatus() != null && v.getStatus().getNodeName() != null) {
                    vmiNodes.put(key(v), v.getStatus().getNodeName());
                }
            }
            List<VirtualMachineInstanceMigration> all = vmimInformer.getStore().list();
            Set<String> withTarget = new java.util.HashSet<>();
            for (VirtualMachineInstanceMigration m : all) {
                String uid = m.getMetadata().getUid();
                if (uid != null && !m.isFinal() && !podInformer.getIndexer().byIndex(BY_MIGRATION, uid).isEmpty()) {
                    withTarget.add(uid);
                }
            }
            waitingCluster = new WhyPendingDecision.Cluster(all, vmiNodes, withTarget,
                    config.migrations(), MigrationTimings.defaults().scaledBy(config.timeScale()).backoff(), java.time.Instant.now());
        }
        Pod target = podInformer.getIndexer().byIndex(BY_MIGRATION, Objects.toString(vmim.getMetadata().getUid(), "")).stream()
                .max(Comparator.comparing(p -> Objects.toString(p.getMetadata().getCreationTimestamp(), ""))).orElse(null);
        String uid = vmi.getMetadata().getUid();
        PodDisruptionBudget budget = uid == null ? null : pdbInformer.getIndexer().byIndex(BY_TARGET, uid).stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                .filter(p -> DisruptionBudgets.controllingVmi(p).map(ref -> uid.equals(ref.getUid())).orElse(false))
                .findFirst().orElse(null);
        return WhyPendingDecision.forMigration(vmim, vmi, target, budget, DisruptionBudgetDecision.needsBudget(vmi, config),
                waitingCluster).map(WhyPendingDecision.Why::text).orElse("");
    }

    /** The migration a pod is the target of ({@code kubevirt.io/migrationJobUID}), as an index value. */
    private static List<String> migrationOf(Pod p) {
        String uid = p.getMetadata().getLabels() == null ? null : p.getMetadata().getLabels().get(KubeVirtLabels.MIGRATION_JOB_UID);
        return uid == null ? List.of() : List.of(uid);
    }

    private Row vmiRow(VirtualMachineInstance vmi) {
        String ns = vmi.getMetadata().getNamespace();
        // Only the PDBs that can protect this VMI: its own (by uid) and the namespace's broad ones.
        Collection<PodDisruptionBudget> pdbsHere = new ArrayList<>(pdbInformer.getIndexer().byIndex(BY_TARGET, PdbTargets.anyIn(ns)));
        if (vmi.getMetadata().getUid() != null) {
            pdbInformer.getIndexer().byIndex(BY_TARGET, vmi.getMetadata().getUid()).stream()
                    .filter(p -> ns.equals(p.getMetadata().getNamespace()) && !pdbsHere.contains(p)).forEach(pdbsHere::add);
        }
        Optional<VirtualMachineInstanceMigration> newest = vmimInformer.getIndexer().byIndex(BY_VMI, key(vmi)).stream()
                .max(Comparator.comparing(m -> Objects.toString(m.getMetadata().getCreationTimestamp(), "")));
        return RowMapping.vmiRow(vmi, config, pdbsHere, newest);
    }

    @SuppressWarnings("unchecked")
    private void applyBatch(Map<Table, Map<String, Optional<Row>>> batch, KubeVirtSettings newSettings, boolean allSynced) {
        try {
            if (closed) {
                return;
            }
            batch.forEach((table, changes) -> ((RowTable<Row>) tables.get(table)).apply(changes));
            if (newSettings != null) {
                settings.set(newSettings);
            }
            synced.set(allSynced);
        } finally {
            batchInFlight.set(false);
        }
        if (dirty.values().stream().anyMatch(s -> !s.isEmpty()) || settingsDirty) {
            requestFlush();
        }
    }

    /** Projector thread, twice a second: are the watches up? */
    private void checkConnection() {
        if (closed) {
            return;
        }
        boolean allSynced = informers.stream().allMatch(SharedIndexInformer::hasSynced);
        boolean allWatching = informers.stream().allMatch(SharedIndexInformer::isWatching);
        ConnectionState now = !allSynced && lastState == ConnectionState.SYNCING ? ConnectionState.SYNCING
                : allWatching ? ConnectionState.LIVE : ConnectionState.RECONNECTING;
        String reason = now != ConnectionState.RECONNECTING ? "" : reconnectReason(informers.stream()
                .filter(i -> !i.isWatching()).map(i -> i.getApiTypeClass().getSimpleName()).toList(), lastWatchError);
        if (now != ConnectionState.RECONNECTING) {
            lastWatchError = "";
        }
        if (!reason.equals(lastReasonSent)) {
            lastReasonSent = reason;
            fx.execute(() -> {
                if (!closed) {
                    reconnectReason.set(reason);
                }
            });
        }
        if (now != lastState) {
            lastState = now;
            fx.execute(() -> {
                if (!closed) {
                    state.set(now);
                }
            });
        }
        if (allSynced != syncedSent || settingsDirty) {
            requestFlush(); // carries the synced flag and settings to the FX side
        }
    }

    @Override
    public void close() {
        closed = true;
        informers.forEach(SharedIndexInformer::close);
        projector.shutdownNow();
        fx.execute(() -> state.set(ConnectionState.CLOSED));
    }
}
