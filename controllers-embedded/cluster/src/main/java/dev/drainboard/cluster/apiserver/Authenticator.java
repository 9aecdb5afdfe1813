package dev.drainboard.cluster.apiserver;

import dev.drainboard.cluster.apiserver.rbac.UserInfo;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Set;

/**
 * Who sent a request, from its {@code Authorization} header: the kubeconfig's token is the cluster admin
 * ({@link AdminUser}), a TokenRequest token its service account; no token is {@code system:anonymous}, allowed only the
 * public paths; an unknown or expired token is 401 everywhere, as kube-apiserver's bearer-token authenticators answer. Tokens are compared,
 * never logged.
 */
public final class Authenticator {

    /** Reachable without a token, as kube-apiserver allows anonymous health and version checks. */
    private static final Set<String> PUBLIC_PATHS = Set.of("/version", "/healthz", "/livez", "/readyz");

    private final byte[] adminHeader;
    private final Authorization authorization;

    public Authenticator(ApiServer api, String adminToken) {
        this.adminHeader = ("Bearer " + adminToken).getBytes(StandardCharsets.UTF_8);
        this.authorization = api.authorization();
    }

    /** The request's user, or null for a 401. */
    public UserInfo authenticate(String authorizationHeader, String path) {
        if (authorizationHeader == null) {
            return PUBLIC_PATHS.contains(path) ? UserInfo.ANONYMOUS : null;
        }
        if (MessageDigest.isEqual(authorizationHeader.getBytes(StandardCharsets.UTF_8), adminHeader)) {
            return AdminUser.USER;
        }
        if (authorizationHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
            // a token that does not authenticate is 401 on every path, public ones too, as kube-apiserver answers
            return authorization.authenticateServiceAccount(authorizationHeader.substring(7).trim());
        }
        return null;
    }
}
