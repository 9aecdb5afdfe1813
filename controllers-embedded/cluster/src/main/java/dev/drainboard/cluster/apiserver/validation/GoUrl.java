package dev.drainboard.cluster.apiserver.validation;

import dev.drainboard.validation.GoStrings;

/**
 * The parts of Go's {@code net/url.Parse} that kube-apiserver's webhook URL validation looks at: the scheme, the host,
 * the user information, the fragment and the raw query, and the parse errors Go reports (as {@code parse "URL": why}).
 */
record GoUrl(String scheme, String user, String host, String rawQuery, String fragment) {

    /** A URL Go's parser refuses. */
    static final class ParseException extends Exception {
        ParseException(String raw, String why) {
            super("parse " + GoStrings.quote(raw) + ": " + why);
        }
    }

    static GoUrl parse(String raw) throws ParseException {
        int hash = raw.indexOf('#');
        String rest = hash < 0 ? raw : raw.substring(0, hash);
        String fragment = hash < 0 ? "" : raw.substring(hash + 1);
        String parsed = rest; // Go names the URL without its fragment in parse errors
        for (int i = 0; i < rest.length(); i++) {
            char c = rest.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw new ParseException(rest, "net/url: invalid control character in URL");
            }
        }
        if (rest.equals("*")) {
            return new GoUrl("", null, "", "", fragment);
        }
        String scheme = "";
        for (int i = 0; i < rest.length(); i++) {
            char c = rest.charAt(i);
            if (Character.isLetter(c) && c < 0x80) {
                continue;
            }
            if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
                if (i == 0) {
                    break;
                }
                continue;
            }
            if (c == ':') {
                if (i == 0) {
                    throw new ParseException(rest, "missing protocol scheme");
                }
                scheme = rest.substring(0, i).toLowerCase(java.util.Locale.ROOT);
                rest = rest.substring(i + 1);
            }
            break;
        }
        String rawQuery = "";
        if (rest.endsWith("?") && rest.chars().filter(c -> c == '?').count() == 1) {
            rest = rest.substring(0, rest.length() - 1);
        } else {
            int q = rest.indexOf('?');
            if (q >= 0) {
                rawQuery = rest.substring(q + 1);
                rest = rest.substring(0, q);
            }
        }
        if (!rest.startsWith("/") && !scheme.isEmpty()) {
            return new GoUrl(scheme, null, "", rawQuery, fragment); // opaque: no host
        }
        if (rest.startsWith("//")) {
            String authority = rest.substring(2);
            int slash = authority.indexOf('/');
            if (slash >= 0) {
                authority = authority.substring(0, slash);
            }
            int at = authority.lastIndexOf('@');
            String user = at < 0 ? null : authority.substring(0, at);
            String host = at < 0 ? authority : authority.substring(at + 1);
            checkHost(parsed, host);
            return new GoUrl(scheme, user, host, rawQuery, fragment);
        }
        return new GoUrl(scheme, null, "", rawQuery, fragment);
    }

    private static void checkHost(String raw, String host) throws ParseException {
        String port;
        if (host.startsWith("[")) {
            int close = host.lastIndexOf(']');
            if (close < 0) {
                throw new ParseException(raw, "missing ']' in host");
            }
            port = host.substring(close + 1);
            if (!port.isEmpty() && !port.startsWith(":")) {
                throw new ParseException(raw, "invalid port " + GoStrings.quote(port) + " after host");
            }
        } else {
            int colon = host.lastIndexOf(':');
            port = colon < 0 ? "" : host.substring(colon);
            for (int i = 0; i < host.length() - port.length(); i++) {
                char c = host.charAt(i);
                if (c == ' ' || c == '{' || c == '}' || c == '|' || c == '\\'
                        || c == '^' || c == '`') {
                    throw new ParseException(raw, "invalid character " + GoStrings.quote(String.valueOf(c)) + " in host name");
                }
            }
        }
        for (int i = 1; i < port.length(); i++) {
            if (!Character.isDigit(port.charAt(i)) || port.charAt(i) > '9') {
                throw new ParseException(raw, "invalid port " + GoStrings.quote(port) + " after host");
            }
        }
    }
}
