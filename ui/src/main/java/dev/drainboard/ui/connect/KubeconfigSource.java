package dev.drainboard.ui.connect;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A kubeconfig the connect screen offers: the default one ({@code KUBECONFIG} merged, else {@code ~/.kube/config})
 * or a file the operator added.
 *
 * @param files    the files read; for the default source all of {@code KUBECONFIG}'s
 * @param isDefault connect through fabric8's own merging of {@code KUBECONFIG}
 * @param problem  why it could not be read, in words for the operator; empty when it was read
 */
public record KubeconfigSource(String label, List<Path> files, boolean isDefault, List<KubeContext> contexts,
                               Optional<String> problem) {

    public KubeconfigSource {
        files = List.copyOf(files);
        contexts = List.copyOf(contexts);
    }
}
