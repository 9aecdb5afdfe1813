package dev.drainboard.controlplane;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes credentials out of text on its way to a log: HTTP authorization and cookie headers, bearer tokens, PEM private
 * keys, and the kubeconfig and JSON fields that hold a token, a password or a client key. What is left says where a
 * credential was ({@code Authorization: <redacted>}), never what it was. See docs/security.md.
 */
public final class Redaction {

    public static final String REDACTED = "<redacted>";

    /** Names of fields whose value is a credential, in kubeconfigs (client-key-data), OIDC and OAuth answers, JSON. */
    private static final String SECRET_FIELDS = "token|access[-_]?token|id[-_]?token|refresh[-_]?token|bearer[-_]?token"
            + "|client[-_]?key[-_]?data|client[-_]?secret|password|authorization";

    private record Rule(Pattern pattern, String replacement) {
    }

    private static final List<Rule> RULES = List.of(
            // "-----BEGIN PRIVATE KEY----- … -----END PRIVATE KEY-----" (PKCS#8, RSA, EC; also a block cut short).
            new Rule(Pattern.compile("-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----.*?(?:-----END \\1PRIVATE KEY-----|\\z)",
                    Pattern.DOTALL), "-----BEGIN $1PRIVATE KEY-----" + REDACTED + "-----END $1PRIVATE KEY-----"),
            // A header as HTTP loggers write it: "> Authorization: Bearer …", "Proxy-Authorization: Basic …", "Cookie: …".
            new Rule(Pattern.compile("(?i)\\b((?:proxy-)?authorization|(?:set-)?cookie)([ \\t]*:[ \\t]*)[^\\r\\n]+"),
                    "$1$2" + REDACTED),
            // A bearer token anywhere else.
            new Rule(Pattern.compile("(?i)\\b(bearer)([ \\t]+)[A-Za-z0-9\\-._~+/]+=*"), "$1$2" + REDACTED),
            // JSON: "token": "…", "client-key-data": "…".
            new Rule(Pattern.compile("(?i)(\"(?:" + SECRET_FIELDS + ")\"\\s*:\\s*\")(?:[^\"\\\\]|\\\\.)*(\")"),
                    "$1" + REDACTED + "$2"),
            // YAML, block style: "    token: …" on a line of its own (a list item too).
            new Rule(Pattern.compile("(?im)^([ \\t]*(?:-[ \\t]+)?(?:" + SECRET_FIELDS + ")[ \\t]*:[ \\t]*)[^\\s{\\[][^\\r\\n]*$"),
                    "$1" + REDACTED),
            // YAML, flow style: "{token: …, …}".
            new Rule(Pattern.compile("(?i)([{,][ \\t]*(?:" + SECRET_FIELDS + ")[ \\t]*:[ \\t]*)[^,}\\s][^,}\\r\\n]*"),
                    "$1" + REDACTED),
            // A token in a URL's query: "?access_token=…".
            new Rule(Pattern.compile("(?i)([?&](?:access_token|token)=)[^&\\s]+"), "$1" + REDACTED));

    private Redaction() {
    }

    /** The text with every credential it holds replaced by {@value #REDACTED}; null stays null. */
    public static String redact(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String result = text;
        for (Rule rule : RULES) {
            Matcher matcher = rule.pattern().matcher(result);
            if (matcher.find()) {
                result = matcher.replaceAll(rule.replacement());
            }
        }
        return result;
    }
}
