package dev.drainboard.controlplane;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("Redaction: credentials never reach a log line, what surrounds them does")
class RedactionTest {

    static Stream<Arguments> redacted() {
        return Stream.of(
                Arguments.of("> Authorization: Bearer s3cr3t.TOKEN-value_1", "> Authorization: <redacted>"),
                Arguments.of("> authorization: Basic dXNlcjpwYXNz", "> authorization: <redacted>"),
                Arguments.of("> Proxy-Authorization: Basic dXNlcjpwYXNz", "> Proxy-Authorization: <redacted>"),
                Arguments.of("< Set-Cookie: session=abc; HttpOnly", "< Set-Cookie: <redacted>"),
                Arguments.of("> Cookie: session=abc", "> Cookie: <redacted>"),
                Arguments.of("retrying with bearer eyJhbGciOi.JIUzI1NiJ9.e30= now", "retrying with bearer <redacted> now"),
                Arguments.of("{\"status\":{\"token\":\"eyJ.secret\\\"quoted\"},\"kind\":\"TokenRequest\"}",
                        "{\"status\":{\"token\":\"<redacted>\"},\"kind\":\"TokenRequest\"}"),
                Arguments.of("{\"id_token\": \"abc\", \"refresh-token\":\"def\", \"name\":\"x\"}",
                        "{\"id_token\": \"<redacted>\", \"refresh-token\":\"<redacted>\", \"name\":\"x\"}"),
                Arguments.of("users:\n- name: u\n  user:\n    token: abc123\n    client-key-data: LS0tLS1CRUdJTg==\n",
                        "users:\n- name: u\n  user:\n    token: <redacted>\n    client-key-data: <redacted>\n"),
                Arguments.of("  - password: hunter2", "  - password: <redacted>"),
                Arguments.of("users: [{name: u, user: {token: abc123, username: x}}]",
                        "users: [{name: u, user: {token: <redacted>, username: x}}]"),
                Arguments.of("GET /oauth?access_token=abc&x=1", "GET /oauth?access_token=<redacted>&x=1"),
                Arguments.of("key:\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkq\nhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\nafter",
                        "key:\n-----BEGIN PRIVATE KEY-----<redacted>-----END PRIVATE KEY-----\nafter"),
                Arguments.of("-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEI (cut short",
                        "-----BEGIN EC PRIVATE KEY-----<redacted>-----END EC PRIVATE KEY-----"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void redacted(String text, String expected) {
        assertThat(Redaction.redact(text)).isEqualTo(expected);
    }

    static Stream<String> untouched() {
        return Stream.of(
                "> GET https://127.0.0.1:6443/api/v1/nodes?resourceVersion=0",
                "> Accept: application/json",
                "< 200 OK",
                "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\"}",
                "{\"metadata\":{\"continue\":\"eyJ2IjoibWV0YS5rOHMuaW8vdjEi\"}}",
                "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----",
                "no credential here");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void untouched(String text) {
        assertThat(Redaction.redact(text)).isEqualTo(text);
    }
}
