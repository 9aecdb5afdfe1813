package dev.drainboard.ops;

import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Operator actions on one cluster, shared by the CLI and the UI: cordon, uncordon, taint, evict, drain preview,
 * drain, a VMI's evacuation and migrations, and scaling VMI replica sets. Everything goes through the Kubernetes API; evictions always through the eviction API, never a delete.
 *
 * <p>The client must not retry 429s itself (fabric8 does by default), or an eviction's answers would be hidden:
 * {@link #connect} turns retries off, and {@link #Ops(KubernetesClient)} derives such a client when given one
 * that retries.
 */
public final class Ops implements AutoCloseable {

    private final KubernetesClient client;
    private final boolean ownsClient;
    private final NodeOps nodes;
    private final PodEviction eviction;
    private final VmiOps vmis;
    private final VmOps vms;
    private final ReplicaSetOps replicaSets;
    private final DrainHistory history;
    /** The Vert.x instance of a client this Ops made ({@link #connect}), closed and waited for by {@link #close}. */
    private final Vertx vertx;

    /** A client for this configuration with fabric8's request retries off (each 429 is seen). */
    public static Ops connect(Config config) {
        Config noRetries = new ConfigBuilder(config).withRequestRetryBackoffLimit(0).build();
        return new Ops(new KubernetesClientBuilder().withConfig(noRetries).build(), true);
    }

    /**
     * As {@link #connect(Config)}, with the client's HTTP factory made on a Vert.x instance of this Ops, which
     * {@link #close()} closes and waits for (at most 2 s): HotSpot's exit waits up to 300 ms for threads still in
     * native code (an event loop in epoll_wait), which a CLI command that exits right after closing its client paid
     * every time (docs/benchmarks.md, "Cold drain from the command line").
     */
    public static Ops connect(Config config, Function<Vertx, HttpClient.Factory> factoryOn) {
        Config noRetries = new ConfigBuilder(config).withRequestRetryBackoffLimit(0).build();
        Vertx vertx = Vertx.vertx(new VertxOptions().setUseDaemonThread(true)
                .setFileSystemOptions(new FileSystemOptions().setFileCachingEnabled(false).setClassPathResolvingEnabled(false)));
        try {
            KubernetesClient client = new KubernetesClientBuilder().withHttpClientFactory(factoryOn.apply(vertx))
                    .withConfig(noRetries).build();
            return new Ops(client, true, vertx);
        } catch (RuntimeException e) {
            vertx.close();
            throw e;
        }
    }

    /** On the caller's client (left open by {@link #close()}); a client that retries is replaced by one that does not. */
    public Ops(KubernetesClient client) {
        this(withoutRetries(client), client.getConfiguration().getRequestRetryBackoffLimit() != 0);
    }

    private Ops(KubernetesClient client, boolean ownsClient) {
        this(client, ownsClient, null);
    }

    private Ops(KubernetesClient client, boolean ownsClient, Vertx vertx) {
        this.client = Objects.requireNonNull(client);
        this.ownsClient = ownsClient;
        this.vertx = vertx;
        this.nodes = new NodeOps(client);
        this.eviction = new PodEviction(client);
        this.vmis = new VmiOps(client);
        this.vms = new VmOps(client);
        this.replicaSets = new ReplicaSetOps(client);
        this.history = new DrainHistory(client, DrainHistory.thisUser());
    }

    private static KubernetesClient withoutRetries(KubernetesClient client) {
        if (client.getConfiguration().getRequestRetryBackoffLimit() == 0) {
            return client;
        }
        Config noRetries = new ConfigBuilder(client.getConfiguration()).withRequestRetryBackoffLimit(0).build();
        return new KubernetesClientBuilder().withConfig(noRetries).build();
    }

    public KubernetesClient client() {
        return client;
    }

    public NodeOps nodes() {
        return nodes;
    }

    public NodeChange cordon(String node) {
        return nodes.cordon(node);
    }

    public NodeChange uncordon(String node) {
        return nodes.uncordon(node);
    }

    /** {@code kubectl taint NODE specs... [--overwrite]}; nothing is written when any spec is invalid. */
    public NodeChange taint(String node, List<String> specs, boolean overwrite) throws InvalidTaintException {
        return nodes.taint(node, specs, overwrite);
    }

    /** Evicts one pod through the eviction API and returns the API server's answer verbatim. */
    public EvictionResponse evict(String namespace, String pod) {
        return eviction.evict(namespace, pod, OptionalLong.empty(), false);
    }

    public EvictionResponse evict(String namespace, String pod, OptionalLong gracePeriodSeconds, boolean dryRun) {
        return eviction.evict(namespace, pod, gracePeriodSeconds, dryRun);
    }

    /**
     * Clears a VMI's evacuation mark ({@code status.evacuationNodeName}); refused (REFUSED) while its node still
     * carries the drain taint. A VMI not marked is reported unchanged.
     */
    public VmiChange cancelEvacuation(String namespace, String vmi) {
        return vmis.cancelEvacuation(namespace, vmi);
    }

    /** Creates a VirtualMachineInstanceMigration; refused unless the VMI runs, is live-migratable and has none under way. */
    public VmiChange migrate(String namespace, String vmi) {
        return vmis.migrate(namespace, vmi);
    }

    /** Start, stop or restart a VirtualMachine through virt-api ({@link VmOps#act}). */
    public VmiChange vm(String namespace, String vm, VmOps.Action action) {
        return vms.act(namespace, vm, action);
    }

    /** Where a VMI could be migrated to, node by node ({@link MigrationTargets}). */
    public List<MigrationTargets.Fit> migrationTargets(String namespace, String vmi) {
        return vms.targets(namespace, vmi);
    }

    /** Migrate a VMI to a chosen node (KubeVirt 1.6+), once it is known to fit there ({@link VmOps#migrateTo}). */
    public VmiChange migrateTo(String namespace, String vmi, String node) {
        return vms.migrateTo(namespace, vmi, node);
    }

    /** Deletes an unfinished VirtualMachineInstanceMigration (the migration is cancelled or aborted); a finished one is reported unchanged. */
    public VmiChange cancelMigration(String namespace, String vmim) {
        VirtualMachineInstanceMigration before = readMigration(namespace, vmim);
        VmiChange change = vmis.cancelMigration(namespace, vmim);
        if (change.changed() && before != null) {
            // KubeVirt keeps no trace of a deleted migration: the history does (docs/drain.md, "History").
            history.recordCancelledMigration(before);
        }
        return change;
    }

    private VirtualMachineInstanceMigration readMigration(String namespace, String name) {
        try {
            return client.resources(VirtualMachineInstanceMigration.class).inNamespace(namespace).withName(name).get();
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            return null; // cancelMigration itself reports it
        }
    }

    /** The drain history of this cluster: drains and cancelled migrations are recorded there ({@link DrainHistory}). */
    public DrainHistory history() {
        return history;
    }

    /** The VMIs whose {@code status.evacuationNodeName} names {@code node}, by namespace and name. */
    public List<dev.drainboard.kubevirt.api.VirtualMachineInstance> markedForEvacuation(String node) {
        return vmis.markedForEvacuation(node);
    }

    /**
     * Clears the evacuation mark of every VMI marked for leaving {@code node} (what a cancelled drain leaves behind),
     * each as {@link #cancelEvacuation} does it; refused (REFUSED, nothing written) while the node carries the drain
     * taint. One method, so that the clearing can switch to KubeVirt's {@code /evacuate/cancel} subresource.
     */
    public List<VmiChange> clearEvacuationMarks(String node) {
        return vmis.clearEvacuationMarks(node);
    }

    /** Why each migration of a running drain waits, and how long its live migrations still take; read now. */
    public DrainWaits waits(java.util.Collection<DrainPreview> previews) {
        return DrainWaits.read(client, previews);
    }

    public ReplicaSetOps replicaSets() {
        return replicaSets;
    }

    /**
     * Sets a VirtualMachineInstanceReplicaSet's {@code spec.replicas} through its scale subresource; negative counts
     * are refused and nothing is written.
     */
    public ReplicaSetChange scale(String namespace, String replicaSet, int replicas) {
        return replicaSets.scale(namespace, replicaSet, replicas);
    }

    /** Every node and pod of the cluster, its MigrationPolicies and the namespaces' labels they select by; read now. */
    public PlacementInputs readPlacement() {
        return ClusterReads.placement(client);
    }

    /** The KubeVirt configuration in force, as KubeVirt would choose it; read now. */
    public dev.drainboard.kubevirt.config.ClusterConfig readClusterConfig() {
        return ClusterReads.clusterConfig(client);
    }

    /** The cluster's KubeVirt configuration as this client reads it now (defaults where there is none or it is invalid). */
    public static dev.drainboard.kubevirt.config.ClusterConfig readClusterConfig(io.fabric8.kubernetes.client.KubernetesClient client) {
        return ClusterReads.clusterConfig(client);
    }

    /** What a drain would do, pod by pod, read now, with its blockers; writes nothing. */
    public DrainPreview preview(String node, DrainOptions options) {
        return previewAll(List.of(node), options).getFirst();
    }

    /** What draining these nodes together would do, per node in the order given, read now; writes nothing. */
    public List<DrainPreview> previewAll(List<String> nodeNames, DrainOptions options) {
        return previewAll(client, nodes, nodeNames, options);
    }

    static List<DrainPreview> previewAll(KubernetesClient client, NodeOps nodes, List<String> nodeNames, DrainOptions options) {
        List<DrainInputs> perNode = ClusterReads.readEach(client, nodes, nodeNames, options);
        return DrainPreview.compute(perNode, ClusterReads.placement(client));
    }

    /** Starts draining a node and returns at once; the listeners see every change from the first. */
    public DrainOperation drain(String node, DrainOptions options, DrainListener... listeners) {
        return drain(node, List.of(node), sharedPreviews(List.of(node), options), options, listeners);
    }

    private SharedPreviews sharedPreviews(List<String> together, DrainOptions options) {
        return new SharedPreviews(() -> previewAll(client, nodes, together, options));
    }

    private DrainOperation drain(String node, List<String> together, SharedPreviews previews, DrainOptions options,
                                 DrainListener... listeners) {
        DrainOperation drain = new DrainOperation(client, eviction, node, together, previews, options);
        for (DrainListener listener : listeners) {
            drain.addListener(listener);
        }
        drain.begin();
        return drain;
    }

    /**
     * Drains several nodes at once, each as its own operation; the future completes when all have ended. Several
     * nodes' PDB-protected pods compete for the same disruption allowance, so the API server decides the order. The
     * placement check counts all of them gone at once, and every drain refuses to start while any node has a blocker
     * (unless {@link DrainOptions#allowStranded()}).
     */
    public List<DrainOperation> drainAll(List<String> nodeNames, DrainOptions options, DrainListener... listeners) {
        List<DrainOperation> drains = new ArrayList<>();
        List<String> together = List.copyOf(nodeNames);
        SharedPreviews previews = sharedPreviews(together, options);
        for (String node : together) {
            drains.add(drain(node, together, previews, options, listeners));
        }
        return drains;
    }

    /**
     * As {@link #drainAll(List, DrainOptions, DrainListener...)}, on previews the caller has just read with
     * {@link #previewAll} for the same nodes and options (the CLI checks them for blockers first): the drains are
     * based on what the caller saw, and the cluster is not read and placed a second time before the first eviction.
     */
    public List<DrainOperation> drainPreviewed(List<DrainPreview> previews, DrainOptions options, DrainListener... listeners) {
        List<DrainPreview> read = List.copyOf(previews);
        List<String> together = read.stream().map(DrainPreview::node).toList();
        SharedPreviews shared = new SharedPreviews(() -> read);
        List<DrainOperation> drains = new ArrayList<>();
        for (String node : together) {
            drains.add(drain(node, together, shared, options, listeners));
        }
        return drains;
    }

    /** Completes when every drain has ended. */
    public static CompletableFuture<List<DrainResult>> allEnded(List<DrainOperation> drains) {
        List<CompletableFuture<DrainResult>> results = drains.stream().map(DrainOperation::result).toList();
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new))
                .thenApply(ignored -> results.stream().map(CompletableFuture::join).toList());
    }

    @Override
    public void close() {
        if (ownsClient) {
            client.close();
        }
        if (vertx != null) {
            try {
                vertx.close().toCompletionStage().toCompletableFuture().get(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // the event loops end on their own; only the exit may wait for them
            }
        }
    }
}
