package dev.drainboard.ops;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

import java.util.List;
import java.util.Objects;

/**
 * Cordon, uncordon, taint and untaint, as {@code kubectl} does them: strategic merge patches of the node's spec,
 * nothing written when nothing changes or the input is invalid.
 */
public final class NodeOps {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Taint changes read the node and write its whole taint list: retried when someone else wrote in between. */
    private static final int CONFLICT_RETRIES = 5;

    private final KubernetesClient client;

    public NodeOps(KubernetesClient client) {
        this.client = Objects.requireNonNull(client);
    }

    public NodeChange cordon(String node) {
        return setUnschedulable(node, true);
    }

    public NodeChange uncordon(String node) {
        return setUnschedulable(node, false);
    }

    private NodeChange setUnschedulable(String name, boolean unschedulable) {
        Node node = get(name);
        boolean now = node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
        String verb = unschedulable ? "cordoned" : "uncordoned";
        if (now == unschedulable) {
            return new NodeChange(name, false, "node/" + name + " already " + verb);
        }
        // Like kubectl: false is the field's zero value, so uncordoning removes it.
        String patch = unschedulable ? "{\"spec\":{\"unschedulable\":true}}" : "{\"spec\":{\"unschedulable\":null}}";
        try {
            client.nodes().withName(name).patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch);
        } catch (KubernetesClientException e) {
            throw OpsException.from("node \"" + name + "\"", e);
        }
        return new NodeChange(name, true, "node/" + name + " " + verb);
    }

    /** {@code kubectl taint NODE <specs...> [--overwrite]}: validates every argument before reading the node. */
    public NodeChange taint(String node, List<String> specs, boolean overwrite) throws InvalidTaintException {
        return taint(node, Taints.parse(specs), overwrite);
    }

    public NodeChange taint(String name, TaintChange change, boolean overwrite) throws InvalidTaintException {
        if (change.isEmpty()) {
            throw new InvalidTaintException("at least one taint update is required");
        }
        for (int attempt = 1; ; attempt++) {
            Node node = get(name);
            List<Taint> before = node.getSpec() == null ? List.of() : node.getSpec().getTaints();
            List<Taint> after = Taints.apply(name, before, change, overwrite);
            if (sameTaints(before, after)) {
                return new NodeChange(name, false, "node/" + name + " not " + Taints.verb(change));
            }
            try {
                client.nodes().withName(name).patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
                        taintPatch(node.getMetadata().getResourceVersion(), after));
                return new NodeChange(name, true, "node/" + name + " " + Taints.verb(change));
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= CONFLICT_RETRIES) {
                    throw OpsException.from("node \"" + name + "\"", e);
                }
            }
        }
    }

    /** Adds KubeVirt's {@code kubevirt.io/drain:NoSchedule}: the evacuation controller then migrates the node's VMIs away. */
    public NodeChange addKubeVirtDrainTaint(String node) throws InvalidTaintException {
        if (hasTaint(get(node), Taints.kubevirtDrain())) {
            return new NodeChange(node, false, "node/" + node + " already has " + Taints.describe(Taints.kubevirtDrain()));
        }
        return taint(node, new TaintChange(List.of(Taints.kubevirtDrain()), List.of()), false);
    }

    public NodeChange removeKubeVirtDrainTaint(String node) throws InvalidTaintException {
        Taint drain = Taints.kubevirtDrain();
        if (!hasTaint(get(node), drain)) {
            return new NodeChange(node, false, "node/" + node + " has no " + Taints.describe(drain));
        }
        return taint(node, new TaintChange(List.of(), List.of(Taints.taint(drain.getKey(), null, drain.getEffect()))), false);
    }

    private static boolean hasTaint(Node node, Taint taint) {
        return node.getSpec() != null && node.getSpec().getTaints() != null && node.getSpec().getTaints().stream()
                .anyMatch(t -> t.getKey().equals(taint.getKey()) && Objects.equals(t.getEffect(), taint.getEffect()));
    }

    /** The node, or NOT_FOUND / UNREACHABLE. */
    Node get(String name) {
        Node node;
        try {
            node = client.nodes().withName(name).get();
        } catch (KubernetesClientException e) {
            throw OpsException.from("node \"" + name + "\"", e);
        }
        if (node == null) {
            throw new OpsException(OpsException.Kind.NOT_FOUND, "node \"" + name + "\" not found", null);
        }
        return node;
    }

    /** The whole list (it is atomic in a strategic merge patch), guarded by the resourceVersion it was computed from. */
    private static String taintPatch(String resourceVersion, List<Taint> taints) {
        ObjectNode patch = JSON.createObjectNode();
        patch.putObject("metadata").put("resourceVersion", resourceVersion);
        ObjectNode spec = patch.putObject("spec");
        if (taints.isEmpty()) {
            spec.putNull("taints");
        } else {
            ArrayNode list = spec.putArray("taints");
            for (Taint t : taints) {
                ObjectNode item = list.addObject().put("key", t.getKey());
                if (t.getValue() != null && !t.getValue().isEmpty()) {
                    item.put("value", t.getValue());
                }
                item.put("effect", t.getEffect());
                if (t.getTimeAdded() != null) {
                    item.put("timeAdded", t.getTimeAdded());
                }
            }
        }
        return patch.toString();
    }

    private static boolean sameTaints(List<Taint> a, List<Taint> b) {
        List<Taint> left = a == null ? List.of() : a;
        if (left.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < left.size(); i++) {
            Taint x = left.get(i);
            Taint y = b.get(i);
            if (!Objects.equals(x.getKey(), y.getKey()) || !Objects.equals(x.getEffect(), y.getEffect())
                    || !Objects.equals(emptyToNull(x.getValue()), emptyToNull(y.getValue()))) {
                return false;
            }
        }
        return true;
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
