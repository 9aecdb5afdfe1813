package dev.drainboard.admission;

import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.KubeVirtValues;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code ValidatingWebhookConfiguration} {@code virt-api-validator} with the launcher eviction webhook as
 * KubeVirt up to v1.4 registers it ({@code pkg/virt-operator/resource/generate/components/webhooks.go};
 * docs/behaviour.md, "Eviction webhook"): every operation on {@code pods/eviction}, {@code failurePolicy: Ignore}
 * (a webhook that is down must not block evictions cluster-wide; the PDBs still protect launcher pods),
 * {@code timeoutSeconds: 10}, {@code sideEffects: NoneOnDryRun}, {@code matchPolicy: Equivalent}, and a
 * {@code url} client configuration pointing at Drainboard's own server instead of the virt-api service.
 *
 * <p>Registering touches only this webhook's entry: other webhooks in the configuration stay as they are.
 */
public final class WebhookRegistration {

    public static final String CONFIGURATION_NAME = KubeVirtValues.WEBHOOK_CONFIGURATION_NAME;
    public static final String WEBHOOK_NAME = KubeVirtValues.LAUNCHER_EVICTION_WEBHOOK;
    /** Where Drainboard serves it (KubeVirt's path up to v1.6; later releases use {@code /pod-eviction-validate}). */
    public static final String PATH = "/launcher-eviction-validate";
    public static final String MANAGED_BY = "drainboard";

    private WebhookRegistration() {
    }

    /** The webhook entry pointing at {@code url}, trusting {@code caBundlePem} (PEM text, not yet base64). */
    public static ValidatingWebhook webhook(String url, String caBundlePem) {
        return new ValidatingWebhookBuilder()
                .withName(WEBHOOK_NAME)
                .withAdmissionReviewVersions("v1", "v1beta1")
                .withNewClientConfig()
                    .withUrl(url)
                    .withCaBundle(java.util.Base64.getEncoder().encodeToString(
                            caBundlePem.getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
                .endClientConfig()
                .withFailurePolicy("Ignore")
                .withMatchPolicy("Equivalent")
                .withNamespaceSelector(new LabelSelector())
                .withObjectSelector(new LabelSelector())
                .withRules(new RuleWithOperationsBuilder()
                        .withApiGroups("")
                        .withApiVersions("v1")
                        .withOperations("*")
                        .withResources("pods/eviction")
                        .withScope("*")
                        .build())
                .withSideEffects("NoneOnDryRun")
                .withTimeoutSeconds(KubeVirtValues.WEBHOOK_TIMEOUT_SECONDS)
                .build();
    }

    /** Creates the configuration, or puts this webhook into the existing one (replacing an older entry). */
    public static ValidatingWebhookConfiguration register(KubernetesClient client, ValidatingWebhook webhook) {
        var configurations = client.admissionRegistration().v1().validatingWebhookConfigurations();
        for (int attempt = 0; ; attempt++) {
            ValidatingWebhookConfiguration existing = configurations.withName(CONFIGURATION_NAME).get();
            try {
                if (existing == null) {
                    return configurations.resource(new ValidatingWebhookConfigurationBuilder()
                            .withNewMetadata()
                                .withName(CONFIGURATION_NAME)
                                .withLabels(Map.of(KubeVirtLabels.APP, CONFIGURATION_NAME,
                                        "app.kubernetes.io/managed-by", MANAGED_BY))
                            .endMetadata()
                            .withWebhooks(webhook)
                            .build()).create();
                }
                List<ValidatingWebhook> webhooks = new ArrayList<>(others(existing));
                webhooks.add(webhook);
                existing.setWebhooks(webhooks);
                return configurations.resource(existing).update();
            } catch (KubernetesClientException e) {
                // Someone else created or changed it meanwhile: read again and retry.
                if ((e.getCode() == 409) && attempt < 5) {
                    continue;
                }
                throw e;
            }
        }
    }

    /** Takes this webhook out of the configuration; deletes the configuration when nothing else is left in it. */
    public static void remove(KubernetesClient client) {
        var configurations = client.admissionRegistration().v1().validatingWebhookConfigurations();
        for (int attempt = 0; ; attempt++) {
            ValidatingWebhookConfiguration existing = configurations.withName(CONFIGURATION_NAME).get();
            if (existing == null) {
                return;
            }
            List<ValidatingWebhook> rest = others(existing);
            try {
                if (rest.isEmpty()) {
                    configurations.withName(CONFIGURATION_NAME).delete();
                } else if (rest.size() != existing.getWebhooks().size()) {
                    existing.setWebhooks(rest);
                    configurations.resource(existing).update();
                }
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() == 409 && attempt < 5) {
                    continue;
                }
                throw e;
            }
        }
    }

    private static List<ValidatingWebhook> others(ValidatingWebhookConfiguration configuration) {
        List<ValidatingWebhook> webhooks = configuration.getWebhooks() == null ? List.of() : configuration.getWebhooks();
        return webhooks.stream().filter(w -> !WEBHOOK_NAME.equals(w.getName())).toList();
    }
}
