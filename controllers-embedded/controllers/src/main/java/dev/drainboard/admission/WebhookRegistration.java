package dev.drainboard.admission;

import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.kubevirt.KubeVirtProfile;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchConditionBuilder;
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
 * the cluster's KubeVirt release registers it (per {@link KubeVirtProfile}; below, up to v1.4) ({@code pkg/virt-operator/resource/generate/components/webhooks.go};
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

    /** The name of KubeVirt's (v1.5+) match condition that limits the webhook to launcher pods. */
    public static final String MATCH_CONDITION_NAME = "only-vms";
    /** Its CEL expression: an Eviction carries the name of the pod it evicts. */
    public static final String MATCH_CONDITION_EXPRESSION = "object.metadata.name.startsWith(\"virt-launcher\")";

    /** The webhook entry as KubeVirt up to v1.4 registers it ({@link #webhook(String, String, KubeVirtProfile)}). */
    public static ValidatingWebhook webhook(String url, String caBundlePem) {
        return webhook(url, caBundlePem, KubeVirtProfile.SEEDS);
    }

    /**
     * The webhook entry pointing at {@code url}, trusting {@code caBundlePem} (PEM text, not yet base64), as the
     * profile's KubeVirt registers it: up to v1.4 {@code failurePolicy: Ignore} and every eviction; from v1.5
     * {@code Fail} and, so that a webhook that is down blocks only launcher pods' evictions, the match condition
     * {@value #MATCH_CONDITION_NAME} ({@code NewVirtAPIValidatingWebhookConfiguration} at v1.5.0).
     */
    public static ValidatingWebhook webhook(String url, String caBundlePem, KubeVirtProfile profile) {
        ValidatingWebhookBuilder builder = new ValidatingWebhookBuilder()
                .withName(WEBHOOK_NAME)
                .withAdmissionReviewVersions("v1", "v1beta1")
                .withNewClientConfig()
                    .withUrl(url)
                    .withCaBundle(java.util.Base64.getEncoder().encodeToString(
                            caBundlePem.getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
                .endClientConfig()
                .withFailurePolicy(profile.webhookFailsClosed() ? "Fail" : "Ignore")
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
                .withTimeoutSeconds(KubeVirtValues.WEBHOOK_TIMEOUT_SECONDS);
        if (profile.webhookFailsClosed()) {
            builder.withMatchConditions(new MatchConditionBuilder()
                    .withName(MATCH_CONDITION_NAME).withExpression(MATCH_CONDITION_EXPRESSION).build());
        }
        return builder.build();
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
