package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.List;

import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.ageColumn;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.column;
import static dev.drainboard.cluster.apiserver.table.ColumnDefinition.nameColumn;

/** Printers for resources whose rows are the name, a field or two, and the age. */
final class BasicPrinters {

    private BasicPrinters() {
    }

    /** NAME STATUS AGE. */
    static ResourcePrinter namespaces() {
        return new SimplePrinter(List.of(nameColumn(),
                column("Status", "string", "The namespace phase: Active or Terminating."), ageColumn()),
                (namespace, now) -> named(namespace).text(Fields.text(namespace, "status", "phase")).text(age(namespace, now)));
    }

    /** NAME DATA AGE, DATA counting both data and binaryData keys. */
    static ResourcePrinter configMaps() {
        return new SimplePrinter(List.of(nameColumn(),
                column("Data", "string", "Number of data and binaryData entries."), ageColumn()),
                (configMap, now) -> named(configMap)
                        .integer(Fields.size(configMap, "data") + Fields.size(configMap, "binaryData"))
                        .text(age(configMap, now)));
    }

    /** NAME TYPE DATA AGE. */
    static ResourcePrinter secrets() {
        return new SimplePrinter(List.of(nameColumn(),
                column("Type", "string", "The secret type."),
                column("Data", "string", "Number of data entries."), ageColumn()),
                (secret, now) -> named(secret)
                        .text(Fields.text(secret, "type"))
                        .integer(Fields.size(secret, "data"))
                        .text(age(secret, now)));
    }

    /** NAME SECRETS AGE. */
    static ResourcePrinter serviceAccounts() {
        return new SimplePrinter(List.of(nameColumn(),
                column("Secrets", "string", "Number of secrets listed on the service account."), ageColumn()),
                (account, now) -> named(account).integer(Fields.size(account, "secrets")).text(age(account, now)));
    }

    /** NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE; an unset bound prints as N/A. */
    static ResourcePrinter podDisruptionBudgets() {
        return new SimplePrinter(List.of(nameColumn(),
                column("Min Available", "string", "Pods that must stay available, as a count or percentage."),
                column("Max Unavailable", "string", "Pods that may be unavailable, as a count or percentage."),
                column("Allowed Disruptions", "integer", "Pod disruptions currently allowed."),
                ageColumn()),
                (budget, now) -> named(budget)
                        .text(Fields.textOr("N/A", budget, "spec", "minAvailable"))
                        .text(Fields.textOr("N/A", budget, "spec", "maxUnavailable"))
                        .integer(Fields.integer(budget, "status", "disruptionsAllowed"))
                        .text(age(budget, now)));
    }

    /** NAME HOLDER AGE. */
    static ResourcePrinter leases() {
        return new SimplePrinter(List.of(nameColumn(),
                column("Holder", "string", "The identity currently holding the lease."), ageColumn()),
                (lease, now) -> named(lease).text(Fields.text(lease, "spec", "holderIdentity")).text(age(lease, now)));
    }

    /** NAME WEBHOOKS AGE, for both validating and mutating webhook configurations. */
    static ResourcePrinter webhookConfigurations() {
        return new SimplePrinter(List.of(nameColumn(),
                column("Webhooks", "integer", "Number of webhooks in the configuration."), ageColumn()),
                (configuration, now) -> named(configuration)
                        .integer(Fields.size(configuration, "webhooks"))
                        .text(age(configuration, now)));
    }

    /**
     * NAME CREATED AT: CustomResourceDefinitions have no printer of their own, so kube-apiserver's default
     * table (an RFC 3339 creation time rather than an age) applies.
     */
    static ResourcePrinter customResourceDefinitions() {
        return new SimplePrinter(List.of(nameColumn(),
                column("Created At", "date", "The object's creationTimestamp.")),
                (definition, now) -> named(definition).text(Ages.instant(Fields.at(definition, "metadata", "creationTimestamp"))
                        .map(Ages::rfc3339)
                        .orElse("0001-01-01T00:00:00Z"))); // Go's zero time, as an unset timestamp prints
    }

    private static Cells named(JsonNode object) {
        return new Cells().text(Fields.text(object, "metadata", "name"));
    }

    private static String age(ObjectNode object, Instant now) {
        return Ages.since(Fields.at(object, "metadata", "creationTimestamp"), now);
    }
}
