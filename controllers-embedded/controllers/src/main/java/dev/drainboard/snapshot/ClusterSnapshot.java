package dev.drainboard.snapshot;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A copy of a cluster's drain-relevant state ({@link SnapshotResource#ALL}), read in full before anything is written,
 * and written as a scenario folder that {@code drainboard serve --scenario DIR} loads.
 *
 * @param files      the scenario's files by name, each a list of objects ({@link SnapshotObjects#prepare})
 * @param unreadable kinds the caller may not list (403) or that a cluster must serve but did not, with why
 * @param notServed  optional kinds the cluster does not serve (no KubeVirt, no instancetypes…)
 * @param counts     objects copied per kind, in reading order
 * @param droppedOwnerReferences owner references to objects the snapshot does not hold, removed
 */
public record ClusterSnapshot(Map<String, List<ObjectNode>> files, List<String> unreadable, List<String> notServed,
                              Map<String, Integer> counts, int droppedOwnerReferences, String source, Instant takenAt) {

    public static final String README = "README.txt";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** Whether every kind could be read: a partial snapshot is still written, and says what it lacks. */
    public boolean complete() {
        return unreadable.isEmpty();
    }

    /**
     * Reads the cluster. A kind the caller may not list is noted ({@link #unreadable}) and the rest is read; any other
     * failure (the cluster unreachable, a server error) throws, and nothing is to be written.
     */
    public static ClusterSnapshot take(KubernetesClient client, Instant now) {
        Map<String, List<ObjectNode>> files = new TreeMap<>();
        List<String> unreadable = new ArrayList<>();
        List<String> notServed = new ArrayList<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        List<ObjectNode> all = new ArrayList<>();
        for (SnapshotResource resource : SnapshotResource.ALL) {
            ResourceDefinitionContext context = new ResourceDefinitionContext.Builder().withGroup(resource.group())
                    .withVersion(resource.version()).withPlural(resource.plural()).withKind(resource.kind())
                    .withNamespaced(resource.namespaced()).build();
            List<GenericKubernetesResource> items;
            try {
                var op = client.genericKubernetesResources(context);
                items = resource.namespaced() ? op.inAnyNamespace().list().getItems() : op.list().getItems();
            } catch (KubernetesClientException e) {
                if (e.getCode() == 403) {
                    unreadable.add(resource.displayName() + ": forbidden (" + firstLine(e) + ")");
                    continue;
                }
                if (e.getCode() == 404) {
                    if (resource.optional()) {
                        notServed.add(resource.displayName());
                    } else {
                        unreadable.add(resource.displayName() + ": not served by the cluster");
                    }
                    continue;
                }
                throw e;
            }
            int copied = 0;
            List<ObjectNode> target = files.computeIfAbsent(resource.file(), f -> new ArrayList<>());
            for (GenericKubernetesResource item : items) {
                ObjectNode object;
                try {
                    object = (ObjectNode) JSON.readTree(client.getKubernetesSerialization().asJson(item));
                } catch (JsonProcessingException e) {
                    throw new UncheckedIOException(e);
                }
                var prepared = SnapshotObjects.prepare(resource, object);
                if (prepared.isPresent()) {
                    target.add(prepared.get());
                    all.add(prepared.get());
                    copied++;
                }
            }
            counts.put(resource.displayName(), copied);
        }
        files.values().removeIf(List::isEmpty);
        int dropped = SnapshotObjects.dropDanglingOwners(all);
        return new ClusterSnapshot(files, List.copyOf(unreadable), List.copyOf(notServed), counts, dropped,
                client.getMasterUrl().toString(), now);
    }

    /**
     * Writes the scenario into {@code dir}: created if missing; an existing folder must be empty, unless
     * {@code replace}, which first removes the files a scenario is read from ({@code *.yaml}, {@code *.yml},
     * {@code *.json}) and {@value #README}, leaving anything else. Files are written to a temporary folder beside
     * {@code dir} first and moved in once all are written, so a failure leaves no half-written scenario.
     *
     * @throws IllegalStateException when {@code dir} is a file, or a folder that is not empty without {@code replace}
     */
    public void write(Path dir, boolean replace) throws IOException {
        checkWritable(dir, replace);
        Path target = dir.toAbsolutePath().normalize();
        Path parent = target.getParent();
        Files.createDirectories(parent);
        Path staging = Files.createTempDirectory(parent, "." + target.getFileName() + ".partial-");
        try {
            for (var file : files.entrySet()) {
                StringBuilder text = new StringBuilder();
                for (ObjectNode object : file.getValue()) {
                    text.append(YAML.writeValueAsString(object));
                }
                Files.writeString(staging.resolve(file.getKey()), text);
            }
            Files.writeString(staging.resolve(README), readme());
            if (!Files.exists(target)) {
                Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
                return;
            }
            if (replace) {
                try (Stream<Path> old = Files.list(target)) {
                    for (Path p : old.toList()) {
                        String name = p.getFileName().toString();
                        if (Files.isRegularFile(p) && (name.matches(".*\\.(ya?ml|json)$") || name.equals(README))) {
                            Files.delete(p);
                        }
                    }
                }
            }
            try (Stream<Path> written = Files.list(staging)) {
                for (Path p : written.toList()) {
                    Files.move(p, target.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } finally {
            if (Files.exists(staging)) {
                try (Stream<Path> left = Files.list(staging)) {
                    for (Path p : left.toList()) {
                        Files.deleteIfExists(p);
                    }
                }
                Files.deleteIfExists(staging);
            }
        }
    }

    /**
     * Refuses, before anything is read, a {@code dir} that {@link #write} would refuse: a file, or a folder that is not
     * empty without {@code replace}.
     */
    public static void checkWritable(Path dir, boolean replace) throws IOException {
        Path target = dir.toAbsolutePath().normalize();
        if (Files.exists(target) && !Files.isDirectory(target)) {
            throw new IllegalStateException(dir + " is a file, not a folder");
        }
        if (Files.isDirectory(target) && !replace && !isEmpty(target)) {
            throw new IllegalStateException(dir + " is not empty (use --force to replace the scenario files in it)");
        }
    }

    /** One line: what was copied, e.g. {@code 4 nodes, 6 VMs, 8 VMIs, 23 pods, 1 PDBs}. */
    public String summary() {
        return count("nodes", "nodes") + ", " + count("virtualmachines.kubevirt.io", "VMs") + ", "
                + count("virtualmachineinstances.kubevirt.io", "VMIs") + ", " + count("pods", "pods") + ", "
                + count("poddisruptionbudgets.policy", "PDBs") + ", " + count("migrationpolicies.migrations.kubevirt.io", "migration policies")
                + (complete() ? "" : "; INCOMPLETE, see README.txt");
    }

    private String count(String kind, String label) {
        return counts.getOrDefault(kind, 0) + " " + label;
    }

    /** What the folder holds, what it leaves out and how to serve it. */
    public String readme() {
        StringBuilder r = new StringBuilder();
        r.append("Drainboard snapshot of ").append(source).append(", taken ").append(takenAt).append(".\n\n");
        r.append("Serve it:  drainboard serve --scenario <this folder> [--time-scale N]\n\n");
        r.append("Copied (objects per kind):\n");
        counts.forEach((kind, n) -> r.append("  ").append(kind).append(": ").append(n).append('\n'));
        r.append("""

                Left out on purpose:
                  - Secrets: never copied.
                  - ConfigMap data: ConfigMaps are copied without data and binaryData (and kubectl's
                    last-applied-configuration annotation is dropped from every object, as it may repeat them).
                  - RBAC, webhook configurations, CRDs, Events, Leases, Services, live migrations in flight (VMIMs),
                    Drainboard's drain history; objects being deleted; the namespaces default, kube-system,
                    kube-public and kube-node-lease themselves (their contents are copied).
                  - Server-set fields a create does not take: resourceVersion, managedFields, generation, selfLink.
                Kept on purpose: uid and creationTimestamp (the scenario loader keeps them, so owner references
                stay valid: a launcher pod still belongs to its VMI), VMIs' and pods' status (the node each runs on:
                a served copy starts every Running VMI again on the node it ran on), nodes' capacity and allocatable.
                """);
        if (droppedOwnerReferences > 0) {
            r.append("Owner references to objects not copied (Jobs, DataVolumes, operators' resources): ")
                    .append(droppedOwnerReferences).append(" removed, so the copy's garbage collector keeps their dependants.\n");
        }
        if (!notServed.isEmpty()) {
            r.append("Not served by the cluster (nothing to copy): ").append(String.join(", ", notServed)).append('\n');
        }
        if (!unreadable.isEmpty()) {
            r.append("\nINCOMPLETE: these could not be read, the copy lacks them:\n");
            unreadable.forEach(u -> r.append("  - ").append(u).append('\n'));
        }
        return r.toString();
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }

    private static String firstLine(KubernetesClientException e) {
        String m = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
        return m == null ? "" : m.lines().findFirst().orElse(m);
    }
}
