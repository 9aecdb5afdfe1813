package dev.drainboard.pki;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Base64;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class TokensTest {

    @Test
    void tokenIs32RandomBytesInUnpaddedUrlSafeBase64() {
        String token = Tokens.newBearerToken();

        assertThat(token).hasSize(43).matches("[A-Za-z0-9_-]+");
        assertThat(Base64.getUrlDecoder().decode(token)).hasSize(32);
    }

    @Test
    void tokensDoNotRepeat() {
        Set<String> tokens = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            tokens.add(Tokens.newBearerToken());
        }
        assertThat(tokens).hasSize(1000);
    }
}
