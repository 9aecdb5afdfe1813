package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.ageColumn;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.column;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.nameColumn;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.wideColumn;

/** Services: NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE, wide SELECTOR. */
final class ServicePrinter {

    private ServicePrinter() {
    }

    static ResourcePrinter create() {
        return new SimplePrinter(List.of(
                nameColumn(),
                column("Type", "string", "How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName."),
                column("Cluster-IP", "string", "The service's primary cluster IP."),
                column("External-IP", "string", "External IPs and load-balancer ingress points."),
                column("Port(s)", "string", "The service ports as port[:nodePort]/protocol."),
                ageColumn(),
                wideColumn("Selector", "string", "The pod label selector of the service.")),
                ServicePrinter::cells);
    }

    private static Cells cells(ObjectNode service, Instant now) {
        JsonNode spec = Fields.at(service, "spec");
        String type = Fields.textOr("ClusterIP", spec, "type"); // the API defaults an unset type to ClusterIP
        String ports = ports(spec);
        return new Cells()
                .text(Fields.text(service, "metadata", "name"))
                .text(type)
                .text(clusterIp(spec))
                .text(externalIp(service, type))
                .text(ports.isEmpty() ? "<none>" : ports)
                .text(Ages.since(Fields.at(service, "metadata", "creationTimestamp"), now))
                .text(LabelFormats.labels(Fields.at(spec, "selector")));
    }

    /** spec.clusterIPs[0] wins over the legacy spec.clusterIP, as in the v1-to-internal conversion. */
    private static String clusterIp(JsonNode spec) {
        String ip = Fields.list(spec, "clusterIPs").stream().findFirst().map(JsonNode::asText).orElse("");
        return ip.isEmpty() ? Fields.textOr("<none>", spec, "clusterIP") : ip;
    }

    private static String externalIp(JsonNode service, String type) {
        List<String> externalIps = Fields.list(service, "spec", "externalIPs").stream().map(JsonNode::asText).toList();
        return switch (type) {
            case "ClusterIP", "NodePort" -> externalIps.isEmpty() ? "<none>" : String.join(",", externalIps);
            case "LoadBalancer" -> {
                List<String> all = new ArrayList<>(loadBalancerIngress(service));
                all.addAll(externalIps);
                yield all.isEmpty() ? "<pending>" : String.join(",", all);
            }
            case "ExternalName" -> Fields.text(service, "spec", "externalName");
            default -> "<unknown>";
        };
    }

    /** Distinct ingress IPs (or hostnames where there is no IP), sorted. Never clipped: the server prints wide. */
    private static TreeSet<String> loadBalancerIngress(JsonNode service) {
        TreeSet<String> ingress = new TreeSet<>();
        for (JsonNode point : Fields.list(service, "status", "loadBalancer", "ingress")) {
            String address = Fields.textOr(Fields.text(point, "hostname"), point, "ip");
            if (!address.isEmpty()) {
                ingress.add(address);
            }
        }
        return ingress;
    }

    private static String ports(JsonNode spec) {
        return Fields.list(spec, "ports").stream().map(port -> {
            long number = Fields.integer(port, "port");
            long nodePort = Fields.integer(port, "nodePort");
            String protocol = Fields.textOr("TCP", port, "protocol"); // the API defaults an unset protocol to TCP
            return nodePort > 0 ? number + ":" + nodePort + "/" + protocol : number + "/" + protocol;
        }).collect(Collectors.joining(","));
    }
}
