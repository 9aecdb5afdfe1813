package dev.drainboard.cluster.apiserver;

import java.util.List;
import java.util.Set;

/** The Kubernetes resources the embedded API server knows without any CRD. */
public final class BuiltinResources {

    public static final ResourceType NAMESPACES = cluster("", "v1", "namespaces", "namespace", "Namespace", List.of("ns"), List.of(), Set.of("status", "finalize"));
    public static final ResourceType NODES = cluster("", "v1", "nodes", "node", "Node", List.of("no"), List.of(), Set.of("status"));
    public static final ResourceType PODS = namespaced("", "v1", "pods", "pod", "Pod", List.of("po"), List.of("all"), Set.of("status", "eviction", "binding"));
    public static final ResourceType EVENTS = namespaced("", "v1", "events", "event", "Event", List.of("ev"), List.of(), Set.of());
    public static final ResourceType SERVICES = namespaced("", "v1", "services", "service", "Service", List.of("svc"), List.of("all"), Set.of("status"));
    public static final ResourceType CONFIG_MAPS = namespaced("", "v1", "configmaps", "configmap", "ConfigMap", List.of("cm"), List.of(), Set.of());
    public static final ResourceType SECRETS = namespaced("", "v1", "secrets", "secret", "Secret", List.of(), List.of(), Set.of());
    public static final ResourceType SERVICE_ACCOUNTS = namespaced("", "v1", "serviceaccounts", "serviceaccount", "ServiceAccount", List.of("sa"), List.of(), Set.of("token"));
    public static final ResourceType PERSISTENT_VOLUME_CLAIMS = namespaced("", "v1", "persistentvolumeclaims", "persistentvolumeclaim", "PersistentVolumeClaim", List.of("pvc"), List.of(), Set.of("status"));
    public static final ResourceType PERSISTENT_VOLUMES = cluster("", "v1", "persistentvolumes", "persistentvolume", "PersistentVolume", List.of("pv"), List.of(), Set.of("status"));
    public static final ResourceType DAEMON_SETS = namespaced("apps", "v1", "daemonsets", "daemonset", "DaemonSet", List.of("ds"), List.of("all"), Set.of("status"));
    public static final ResourceType DEPLOYMENTS = namespaced("apps", "v1", "deployments", "deployment", "Deployment", List.of("deploy"), List.of("all"), Set.of("status", "scale"));
    public static final ResourceType REPLICA_SETS = namespaced("apps", "v1", "replicasets", "replicaset", "ReplicaSet", List.of("rs"), List.of("all"), Set.of("status", "scale"));
    public static final ResourceType STATEFUL_SETS = namespaced("apps", "v1", "statefulsets", "statefulset", "StatefulSet", List.of("sts"), List.of("all"), Set.of("status", "scale"));
    public static final ResourceType POD_DISRUPTION_BUDGETS = namespaced("policy", "v1", "poddisruptionbudgets", "poddisruptionbudget", "PodDisruptionBudget", List.of("pdb"), List.of(), Set.of("status"));
    public static final ResourceType LEASES = namespaced("coordination.k8s.io", "v1", "leases", "lease", "Lease", List.of(), List.of(), Set.of());
    public static final ResourceType EVENTS_V1 = namespaced("events.k8s.io", "v1", "events", "event", "Event", List.of("ev"), List.of(), Set.of());
    public static final ResourceType CUSTOM_RESOURCE_DEFINITIONS = cluster("apiextensions.k8s.io", "v1", "customresourcedefinitions", "customresourcedefinition", "CustomResourceDefinition", List.of("crd", "crds"), List.of("api-extensions"), Set.of("status"));
    public static final ResourceType VALIDATING_WEBHOOK_CONFIGURATIONS = cluster("admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations", "validatingwebhookconfiguration", "ValidatingWebhookConfiguration", List.of(), List.of("api-extensions"), Set.of());
    public static final ResourceType MUTATING_WEBHOOK_CONFIGURATIONS = cluster("admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations", "mutatingwebhookconfiguration", "MutatingWebhookConfiguration", List.of(), List.of("api-extensions"), Set.of());
    public static final ResourceType STORAGE_CLASSES = cluster("storage.k8s.io", "v1", "storageclasses", "storageclass", "StorageClass", List.of("sc"), List.of(), Set.of());
    public static final ResourceType PRIORITY_CLASSES = cluster("scheduling.k8s.io", "v1", "priorityclasses", "priorityclass", "PriorityClass", List.of("pc"), List.of(), Set.of());

    public static final ResourceType CLUSTER_ROLES = cluster("rbac.authorization.k8s.io", "v1", "clusterroles", "clusterrole", "ClusterRole", List.of(), List.of(), Set.of());
    public static final ResourceType CLUSTER_ROLE_BINDINGS = cluster("rbac.authorization.k8s.io", "v1", "clusterrolebindings", "clusterrolebinding", "ClusterRoleBinding", List.of(), List.of(), Set.of());
    public static final ResourceType ROLES = namespaced("rbac.authorization.k8s.io", "v1", "roles", "role", "Role", List.of(), List.of(), Set.of());
    public static final ResourceType ROLE_BINDINGS = namespaced("rbac.authorization.k8s.io", "v1", "rolebindings", "rolebinding", "RoleBinding", List.of(), List.of(), Set.of());

    /** Every built-in resource, in the order kubectl api-resources shows groups. */
    public static final List<ResourceType> ALL = List.of(
            NAMESPACES, NODES, PODS, EVENTS, SERVICES, CONFIG_MAPS, SECRETS, SERVICE_ACCOUNTS,
            PERSISTENT_VOLUME_CLAIMS, PERSISTENT_VOLUMES,
            DAEMON_SETS, DEPLOYMENTS, REPLICA_SETS, STATEFUL_SETS,
            POD_DISRUPTION_BUDGETS, LEASES, EVENTS_V1, CUSTOM_RESOURCE_DEFINITIONS,
            VALIDATING_WEBHOOK_CONFIGURATIONS, MUTATING_WEBHOOK_CONFIGURATIONS,
            STORAGE_CLASSES, PRIORITY_CLASSES,
            CLUSTER_ROLES, CLUSTER_ROLE_BINDINGS, ROLES, ROLE_BINDINGS);

    private BuiltinResources() {
    }

    private static ResourceType namespaced(String group, String version, String plural, String singular, String kind,
                                           List<String> shortNames, List<String> categories, Set<String> subresources) {
        return new ResourceType(group, version, plural, singular, kind, true, shortNames, categories, subresources, scaleOf(subresources), null, null);
    }

    private static ResourceType cluster(String group, String version, String plural, String singular, String kind,
                                        List<String> shortNames, List<String> categories, Set<String> subresources) {
        return new ResourceType(group, version, plural, singular, kind, false, shortNames, categories, subresources, scaleOf(subresources), null, null);
    }

    private static ResourceType.ScaleSpec scaleOf(Set<String> subresources) {
        return subresources.contains("scale")
                ? new ResourceType.ScaleSpec(".spec.replicas", ".status.replicas", ".status.selector")
                : null;
    }
}
