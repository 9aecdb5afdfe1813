package dev.drainboard.pki;

import java.security.SecureRandom;
import java.util.Base64;

/** Random bearer tokens for the API server's single user. */
public final class Tokens {

    private static final int TOKEN_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private Tokens() {
    }

    /** 256 random bits as URL-safe base64 without padding, so the token is safe in headers, URLs and YAML. */
    public static String newBearerToken() {
        byte[] bytes = new byte[TOKEN_BYTES];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
