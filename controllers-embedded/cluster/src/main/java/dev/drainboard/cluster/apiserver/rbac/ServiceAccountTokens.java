package dev.drainboard.cluster.apiserver.rbac;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tokens the TokenRequest API ({@code serviceaccounts/token}) issues: opaque random strings, kept in memory only by
 * their SHA-256 (never in the clear, never logged), each bound to its service account's uid and valid until its expiry.
 * A token of a deleted (or deleted and recreated) service account no longer authenticates, as kube's bound tokens.
 */
public final class ServiceAccountTokens {

    /** Looks up a service account's current uid; null when it does not exist. */
    public interface Accounts {
        String uid(String namespace, String name);
    }

    private record Issued(String namespace, String name, String uid, Instant expiry) {
    }

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Issued> byHash = new ConcurrentHashMap<>();

    public String issue(String namespace, String name, String uid, Instant now, Instant expiry) {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        byHash.values().removeIf(t -> !now.isBefore(t.expiry()));
        byHash.put(hash(token), new Issued(namespace, name, uid, expiry));
        return token;
    }

    /** The service account's user, or null when the token is unknown, expired or its account is gone. */
    public UserInfo authenticate(String token, Instant now, Accounts accounts) {
        Issued issued = byHash.get(hash(token));
        if (issued == null) {
            return null;
        }
        if (!now.isBefore(issued.expiry())) {
            byHash.remove(hash(token));
            return null;
        }
        if (!issued.uid().equals(accounts.uid(issued.namespace(), issued.name()))) {
            return null;
        }
        return UserInfo.serviceAccount(issued.namespace(), issued.name());
    }

    private static String hash(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
