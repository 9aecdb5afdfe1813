package dev.drainboard.cluster.apiserver.table;

import java.util.Map;
import java.util.Optional;

/** The printers kube-apiserver has for built-in resources, keyed by "group/plural" ("" group for core). */
final class BuiltInPrinters {
    private static final Map<String, ResourcePrinter> PRINTERS = Map.ofEntries(
            Map.entry("/pods", new PodPrinter()),
            Map.entry("/nodes", NodePrinter.create()),
            Map.entry("/namespaces", BasicPrinters.namespaces()),
            Map.entry("/events", EventPrinter.coreEvents()),
            Map.entry("events.k8s.io/events", EventPrinter.eventsApiEvents()),
            Map.entry("/services", ServicePrinter.create()),
            Map.entry("/configmaps", BasicPrinters.configMaps()),
            Map.entry("/secrets", BasicPrinters.secrets()),
            Map.entry("/serviceaccounts", BasicPrinters.serviceAccounts()),
            Map.entry("/persistentvolumeclaims", StoragePrinters.persistentVolumeClaims()),
            Map.entry("/persistentvolumes", StoragePrinters.persistentVolumes()),
            Map.entry("storage.k8s.io/storageclasses", StoragePrinters.storageClasses()),
            Map.entry("apps/daemonsets", WorkloadPrinters.daemonSets()),
            Map.entry("apps/deployments", WorkloadPrinters.deployments()),
            Map.entry("apps/replicasets", WorkloadPrinters.replicaSets()),
            Map.entry("apps/statefulsets", WorkloadPrinters.statefulSets()),
            Map.entry("policy/poddisruptionbudgets", BasicPrinters.podDisruptionBudgets()),
            Map.entry("coordination.k8s.io/leases", BasicPrinters.leases()),
            Map.entry("apiextensions.k8s.io/customresourcedefinitions", BasicPrinters.customResourceDefinitions()),
            Map.entry("admissionregistration.k8s.io/validatingwebhookconfigurations", BasicPrinters.webhookConfigurations()),
            Map.entry("admissionregistration.k8s.io/mutatingwebhookconfigurations", BasicPrinters.webhookConfigurations()));

    private BuiltInPrinters() {
    }

    static Optional<ResourcePrinter> find(String group, String plural) {
        return Optional.ofNullable(PRINTERS.get((group == null ? "" : group) + "/" + plural));
    }
}
