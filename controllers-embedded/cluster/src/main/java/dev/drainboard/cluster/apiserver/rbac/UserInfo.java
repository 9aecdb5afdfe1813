package dev.drainboard.cluster.apiserver.rbac;

import java.util.List;

/** Who sent a request, as kube-apiserver's authenticators name users (k8s.io/apiserver/pkg/authentication/user). */
public record UserInfo(String name, List<String> groups) {

    public static final String AUTHENTICATED = "system:authenticated";
    public static final String UNAUTHENTICATED = "system:unauthenticated";
    public static final String MASTERS = "system:masters";
    public static final UserInfo ANONYMOUS = new UserInfo("system:anonymous", List.of(UNAUTHENTICATED));

    public UserInfo {
        groups = List.copyOf(groups);
    }

    /** pkg/serviceaccount/util.go: the user a service account's token authenticates as. */
    public static UserInfo serviceAccount(String namespace, String name) {
        return new UserInfo(serviceAccountName(namespace, name),
                List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace, AUTHENTICATED));
    }

    public static String serviceAccountName(String namespace, String name) {
        return "system:serviceaccount:" + namespace + ":" + name;
    }
}
