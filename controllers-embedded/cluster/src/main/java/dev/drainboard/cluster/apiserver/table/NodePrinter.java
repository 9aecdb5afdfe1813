package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.ageColumn;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.column;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.nameColumn;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.wideColumn;

/** Nodes: NAME STATUS ROLES AGE VERSION, wide INTERNAL-IP EXTERNAL-IP OS-IMAGE KERNEL-VERSION CONTAINER-RUNTIME. */
final class NodePrinter {
    private static final String ROLE_LABEL_PREFIX = "node-role.kubernetes.io/";
    private static final String LEGACY_ROLE_LABEL = "kubernetes.io/role";

    private NodePrinter() {
    }

    static ResourcePrinter create() {
        return new SimplePrinter(List.of(
                nameColumn(),
                column("Status", "string", "Whether the node is Ready, and whether scheduling onto it is disabled."),
                column("Roles", "string", "Roles taken from the node's role labels."),
                ageColumn(),
                column("Version", "string", "The kubelet version the node reports."),
                wideColumn("Internal-IP", "string", "The node's first InternalIP address."),
                wideColumn("External-IP", "string", "The node's first ExternalIP address."),
                wideColumn("OS-Image", "string", "The operating system image the node reports."),
                wideColumn("Kernel-Version", "string", "The kernel version the node reports."),
                wideColumn("Container-Runtime", "string", "The container runtime and version the node reports.")),
                NodePrinter::cells);
    }

    private static Cells cells(ObjectNode node, Instant now) {
        JsonNode nodeInfo = Fields.at(node, "status", "nodeInfo");
        return new Cells()
                .text(Fields.text(node, "metadata", "name"))
                .text(status(node))
                .text(roles(node))
                .text(Ages.since(Fields.at(node, "metadata", "creationTimestamp"), now))
                .text(Fields.text(nodeInfo, "kubeletVersion"))
                .text(address(node, "InternalIP"))
                .text(address(node, "ExternalIP"))
                .text(Fields.textOr("<unknown>", nodeInfo, "osImage"))
                .text(Fields.textOr("<unknown>", nodeInfo, "kernelVersion"))
                .text(Fields.textOr("<unknown>", nodeInfo, "containerRuntimeVersion"));
    }

    /** Only the Ready condition counts; a node that never reported it is Unknown. */
    private static String status(JsonNode node) {
        List<String> status = new ArrayList<>();
        Fields.list(node, "status", "conditions").stream()
                .filter(condition -> "Ready".equals(Fields.text(condition, "type")))
                .reduce((first, second) -> second) // the last Ready condition wins, as with a map keyed by type
                .ifPresentOrElse(
                        ready -> status.add("True".equals(Fields.text(ready, "status")) ? "Ready" : "NotReady"),
                        () -> status.add("Unknown"));
        if (Fields.bool(node, "spec", "unschedulable")) {
            status.add("SchedulingDisabled");
        }
        return String.join(",", status);
    }

    private static String roles(JsonNode node) {
        TreeSet<String> roles = new TreeSet<>();
        Fields.at(node, "metadata", "labels").properties().forEach(label -> {
            String key = label.getKey();
            String value = label.getValue().asText();
            if (key.startsWith(ROLE_LABEL_PREFIX) && key.length() > ROLE_LABEL_PREFIX.length()) {
                roles.add(key.substring(ROLE_LABEL_PREFIX.length()));
            } else if (key.equals(LEGACY_ROLE_LABEL) && !value.isEmpty()) {
                roles.add(value);
            }
        });
        return roles.isEmpty() ? "<none>" : String.join(",", roles);
    }

    private static String address(JsonNode node, String type) {
        return Fields.list(node, "status", "addresses").stream()
                .filter(address -> type.equals(Fields.text(address, "type")))
                .map(address -> Fields.text(address, "address"))
                .findFirst()
                .orElse("<none>");
    }
}
