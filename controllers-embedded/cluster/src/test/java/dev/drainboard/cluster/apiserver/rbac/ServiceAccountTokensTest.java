package dev.drainboard.cluster.apiserver.rbac;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** TokenRequest tokens authenticate their service account until they expire or the account is gone. */
class ServiceAccountTokensTest {

    private static final Instant NOW = Instant.parse("2026-11-28T12:00:00Z");

    private final ServiceAccountTokens tokens = new ServiceAccountTokens();

    @Test
    void aTokenIsItsAccountUntilItExpires() {
        String token = tokens.issue("drainboard", "observer", "uid-1", NOW, NOW.plusSeconds(600));

        assertThat(tokens.authenticate(token, NOW.plusSeconds(599), (ns, name) -> "uid-1"))
                .isEqualTo(new UserInfo("system:serviceaccount:drainboard:observer", java.util.List.of(
                        "system:serviceaccounts", "system:serviceaccounts:drainboard", "system:authenticated")));
        assertThat(tokens.authenticate(token, NOW.plusSeconds(600), (ns, name) -> "uid-1")).isNull();
    }

    @Test
    void aTokenOfADeletedOrRecreatedAccountIsRefused() {
        String token = tokens.issue("drainboard", "observer", "uid-1", NOW, NOW.plusSeconds(3600));

        assertThat(tokens.authenticate(token, NOW, (ns, name) -> null)).isNull();
        assertThat(tokens.authenticate(token, NOW, (ns, name) -> "uid-2")).isNull();
    }

    @Test
    void anUnknownTokenIsNobodyAndTokensDiffer() {
        String one = tokens.issue("drainboard", "observer", "uid-1", NOW, NOW.plusSeconds(3600));
        String two = tokens.issue("drainboard", "observer", "uid-1", NOW, NOW.plusSeconds(3600));

        assertThat(one).isNotEqualTo(two).hasSizeGreaterThanOrEqualTo(43);
        assertThat(tokens.authenticate(one + "x", NOW, (ns, name) -> "uid-1")).isNull();
    }
}
