package dev.drainboard.cluster.apiserver;

import java.util.List;

/**
 * Who the holder of the embedded cluster's bearer token (the kubeconfig's only user) is to the API server: one user in
 * kube-apiserver's superuser group, as a kubeadm cluster's admin certificate makes its holder. Webhooks see this user
 * in AdmissionReviews, SelfSubjectReviews answer it, and SelfSubjectRulesReviews answer the rules RBAC's bootstrap
 * bindings give it.
 */
public final class AdminUser {

    public static final String NAME = "drainboard-admin";
    /** system:masters (user.SystemPrivilegedGroup) and system:authenticated, which every authenticated user has. */
    public static final List<String> GROUPS = List.of("system:masters", "system:authenticated");

    public static final dev.drainboard.cluster.apiserver.rbac.UserInfo USER =
            new dev.drainboard.cluster.apiserver.rbac.UserInfo(NAME, GROUPS);

    private AdminUser() {
    }
}
