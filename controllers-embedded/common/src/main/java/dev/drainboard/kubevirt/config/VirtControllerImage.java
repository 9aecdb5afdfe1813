package dev.drainboard.kubevirt.config;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.List;
import java.util.Optional;

/**
 * The image of KubeVirt's {@code virt-controller} Deployment in its install namespace: the second witness of the
 * version a cluster runs ({@link dev.drainboard.kubevirt.ProfileChoice#resolve}) when the KubeVirt CR reports none.
 */
public final class VirtControllerImage {

    /** The Deployment virt-operator creates ({@code pkg/virt-operator/resource/generate/components/deployments.go}). */
    public static final String DEPLOYMENT = "virt-controller";

    private VirtControllerImage() {
    }

    /** The image of the {@code virt-controller} container (else the first one); empty when there is none or it cannot be read. */
    public static Optional<String> read(KubernetesClient client, String namespace) {
        try {
            Deployment deployment = client.apps().deployments().inNamespace(namespace).withName(DEPLOYMENT).get();
            return of(deployment);
        } catch (KubernetesClientException e) {
            return Optional.empty(); // not allowed to read it, or no such API: the default applies
        }
    }

    static Optional<String> of(Deployment deployment) {
        if (deployment == null || deployment.getSpec() == null || deployment.getSpec().getTemplate() == null
                || deployment.getSpec().getTemplate().getSpec() == null) {
            return Optional.empty();
        }
        List<Container> containers = deployment.getSpec().getTemplate().getSpec().getContainers();
        if (containers == null || containers.isEmpty()) {
            return Optional.empty();
        }
        return containers.stream().filter(c -> DEPLOYMENT.equals(c.getName())).findFirst()
                .or(() -> Optional.of(containers.getFirst()))
                .map(Container::getImage);
    }
}
