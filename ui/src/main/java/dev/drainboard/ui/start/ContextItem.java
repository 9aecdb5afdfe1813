package dev.drainboard.ui.start;

import dev.drainboard.ui.connect.ConnectTarget;
import dev.drainboard.ui.connect.KubeContext;
import dev.drainboard.ui.connect.KubeconfigSource;

import java.util.Locale;
import java.util.Optional;

/** One line of the start screen's context list: a context of a kubeconfig source. */
public record ContextItem(KubeconfigSource source, KubeContext context) {

    /** What the search box matches: the context's names and server, and the source's label. */
    String searchText() {
        return context == null ? source.label().toLowerCase(Locale.ROOT)
                : context.searchText() + " " + source.label().toLowerCase(Locale.ROOT);
    }

    /** Connects through fabric8's own merging for the default source, through the file for an added one. */
    ConnectTarget target() {
        return new ConnectTarget.Kubeconfig(source.isDefault() ? Optional.empty() : Optional.of(source.files().getFirst()),
                context.name());
    }

    /**
     * Whether this is the context kubectl would use now: the default kubeconfig's current-context. An added file's
     * own current-context is not (every added file has one, so every row would say "current").
     */
    public boolean current() {
        return context != null && context.current() && source.isDefault();
    }

    boolean sameAs(ContextItem other) {
        return source.label().equals(other.source().label()) && context.name().equals(other.context().name());
    }
}
