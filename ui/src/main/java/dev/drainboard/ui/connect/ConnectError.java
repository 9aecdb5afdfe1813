package dev.drainboard.ui.connect;

/**
 * Why a connection failed, in words for the operator.
 *
 * @param headline one sentence: what went wrong
 * @param detail   the cause as the system reported it, and what to do
 */
public record ConnectError(Kind kind, String headline, String detail) {

    public enum Kind {
        UNREADABLE_KUBECONFIG, UNREACHABLE, TLS, UNAUTHORIZED, FORBIDDEN, MISSING_CRDS, EMBEDDED_FAILED, OTHER
    }

    /** Missing CRDs can be fixed from the error screen. */
    public boolean offersCrdInstall() {
        return kind == Kind.MISSING_CRDS;
    }
}
