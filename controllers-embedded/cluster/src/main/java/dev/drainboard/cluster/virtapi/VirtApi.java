package dev.drainboard.cluster.virtapi;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiServer;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.ResourceType;
import dev.drainboard.cluster.apiserver.admission.AdmissionAttributes;
import dev.drainboard.cluster.apiserver.admission.BuiltInAdmission;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.config.ClusterConfig;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * virt-api's webhooks, run by the embedded API server in-process ({@link BuiltInAdmission}): on a real cluster
 * kube-apiserver calls them over HTTPS as configured by the {@code virt-api-mutator} and {@code virt-api-validator}
 * webhook configurations; their denials read the same here. The KubeVirt CR in force (chosen as
 * {@link ClusterConfig#select} chooses) is read on every request, so a change to it applies to the next object.
 *
 * <p>The embedded cluster's admin user (the kubeconfig's) runs the node handler; where KubeVirt lets its own service
 * accounts do more than a user (change a VMI's reserved labels or its status), that user is let through. A migration's
 * priority is the exception: only virt-controller's service account may set it, and Drainboard's controllers run as
 * that account here ({@code kubevirt/kubevirt-controller}, see docs/embedded-cluster.md), so a {@code kubectl create}
 * with a priority is refused as on a real cluster.
 */
public final class VirtApi implements BuiltInAdmission {

    private static final String KUBEVIRT_GROUP = "kubevirt.io";
    private static final String DECENTRALIZED_GATE = "DecentralizedLiveMigration";
    private static final ObjectMapper MODEL = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final ApiServer api;

    private VirtApi(ApiServer api) {
        this.api = api;
    }

    public static void install(ApiServer api) {
        api.addAdmission(new VirtApi(api));
        // spec.addedNodeSelector of a VMIM is in KubeVirt's CRD from v1.6 on (older releases' schema prunes it)
        api.setFieldsByRelease(type -> type.group().equals(KUBEVIRT_GROUP) && type.plural().equals("virtualmachineinstancemigrations")
                && !profile(api).migratesToAChosenNode() ? List.of("spec.addedNodeSelector") : List.of());
        EvacuateCancel evacuateCancel = new EvacuateCancel(api);
        VmLifecycle lifecycle = new VmLifecycle(api);
        api.addExtensionApi(EvacuateCancel.GROUP, (request, segments, channel) -> {
            if (VmLifecycle.matches(segments)) {
                lifecycle.handle(request, segments, channel);
            } else {
                evacuateCancel.handle(request, segments, channel);
            }
        });
    }

    @Override
    public void mutate(AdmissionAttributes request) {
        if (!request.operation().equals("CREATE")) {
            return;
        }
        switch (kubeVirtResource(request)) {
            case "virtualmachineinstances" -> {
                String now = Json.timestamp(Instant.now(api.store().clock()));
                Optional<String> error = VmiDefaults.apply(request.object(), config(), UUID.randomUUID().toString(), now);
                if (error.isPresent()) {
                    throw Denial.error(VirtApiWebhooks.VMI_MUTATOR, error.get()).toApiException();
                }
            }
            case "virtualmachineinstancemigrations" -> labelMigration(request.object());
            default -> {
            }
        }
    }

    @Override
    public void validate(AdmissionAttributes request) {
        Optional<Denial> denial = switch (kubeVirtResource(request)) {
            case "virtualmachineinstances" -> request.operation().equals("CREATE")
                    ? validateVmi(request.object())
                    : VmiUpdateDecision.decide(request.object(), request.oldObject());
            case "virtualmachines" -> validateVm(request.object(), true);
            case "virtualmachineinstancemigrations" -> request.operation().equals("CREATE")
                    ? validateMigration(request.namespace(), request.object())
                    : Optional.empty();
            default -> Optional.empty();
        };
        if (denial.isPresent()) {
            throw denial.get().toApiException();
        }
    }

    /**
     * A scenario's objects come from a cluster that admitted them: only the spec checks apply, not those that look at
     * other objects (a migration's VMI, a VM's instancetype), which a scenario may bring in any order or not at all.
     */
    @Override
    public void validateLoaded(AdmissionAttributes request) {
        Optional<Denial> denial = switch (kubeVirtResource(request)) {
            case "virtualmachineinstances" -> validateVmi(request.object());
            case "virtualmachines" -> validateVm(request.object(), false);
            default -> Optional.empty();
        };
        if (denial.isPresent()) {
            throw denial.get().toApiException();
        }
    }

    private static String kubeVirtResource(AdmissionAttributes request) {
        return request.resource().group().equals(KUBEVIRT_GROUP) && request.subresource().isEmpty() ? request.resource().plural() : "";
    }

    private Optional<Denial> validateVmi(ObjectNode vmi) {
        if (!(vmi.get("spec") instanceof ObjectNode spec)) {
            return Optional.empty(); // refused by the schema check already
        }
        List<Cause> causes = new ArrayList<>(VmiSpecValidation.validate("spec", spec, config()));
        causes.addAll(VmiSpecValidation.mandatory("spec", spec));
        return causes.isEmpty() ? Optional.empty() : Optional.of(Denial.invalid(VirtApiWebhooks.VMI_CREATE_VALIDATOR, causes));
    }

    /** pkg/virt-api/webhooks/validating-webhook/admitters/vms-admitter.go, the parts a drain depends on. */
    private Optional<Denial> validateVm(ObjectNode vm, boolean followReferences) {
        if (vm.path("metadata").has("deletionTimestamp") || !(vm.path("spec").path("template").path("spec") instanceof ObjectNode template)) {
            return Optional.empty();
        }
        List<Cause> references = new ArrayList<>();
        if (followReferences) {
            VmReferences.instancetype(vm).flatMap(r -> follow(r, false, Json.namespace(vm))).ifPresent(references::add);
            VmReferences.preference(vm).flatMap(r -> follow(r, true, Json.namespace(vm))).ifPresent(references::add);
        }
        if (!references.isEmpty()) {
            // KubeVirt stops at the first reference it cannot follow
            return Optional.of(Denial.invalid(VirtApiWebhooks.VM_VALIDATOR, references.subList(0, 1)));
        }
        VirtApiConfig config = config();
        ObjectNode copy = template.deepCopy();
        Optional<String> error = VmiDefaults.defaultSpec(copy, config);
        if (error.isPresent()) {
            return Optional.of(Denial.error(VirtApiWebhooks.VM_VALIDATOR, error.get()));
        }
        List<Cause> causes = VmiSpecValidation.validate("spec.template.spec", copy, config);
        return causes.isEmpty() ? Optional.empty() : Optional.of(Denial.invalid(VirtApiWebhooks.VM_VALIDATOR, causes));
    }

    private Optional<Cause> follow(VmReferences.Reference reference, boolean preference, String namespace) {
        return switch (reference) {
            case VmReferences.BadKind bad -> Optional.of(VmReferences.missing(preference, bad.message()));
            case VmReferences.Target target -> {
                Optional<ResourceType> type = api.registry().all().stream()
                        .filter(t -> t.group().equals(VmReferences.GROUP) && t.plural().equals(target.plural()))
                        .findFirst();
                if (type.isEmpty()) {
                    yield Optional.of(VmReferences.missing(preference, VmReferences.resourceNotServed(target)));
                }
                ObjectNode found = api.store().get(type.get(), target.namespaced() ? namespace : null, target.name());
                yield found == null ? Optional.of(VmReferences.missing(preference, VmReferences.notFound(target))) : Optional.empty();
            }
        };
    }

    private Optional<Denial> validateMigration(String namespace, ObjectNode migration) {
        String vmiName = migration.path("spec").path("vmiName").asText("");
        ObjectNode vmi = null;
        List<ObjectNode> migrations = List.of();
        if (!vmiName.isEmpty()) {
            vmi = type("virtualmachineinstances").map(t -> api.store().get(t, namespace, vmiName)).orElse(null);
            migrations = type("virtualmachineinstancemigrations")
                    .map(t -> api.store().list(t, namespace, m -> vmiName.equals(
                            m.path("metadata").path("labels").path(KubeVirtLabels.MIGRATION_SELECTOR).asText(null))))
                    .orElse(List.of());
        }
        boolean gate = false;
        for (JsonNode g : kubeVirt().path("spec").path("configuration").path("developerConfiguration").path("featureGates")) {
            gate |= g.asText().equals(DECENTRALIZED_GATE);
        }
        String username = ApiServer.requestUser().name();
        JsonNode kubeVirt = kubeVirt();
        String installNamespace = kubeVirt.isMissingNode() ? KubeVirtValues.DEFAULT_INSTALL_NAMESPACE : Json.namespace(kubeVirt);
        return MigrationCreateDecision.decide(migration, vmi, migrations, priorityRule(kubeVirt),
                MigrationCreateDecision.isVirtController(username, installNamespace), gate);
    }

    /** What the release the KubeVirt CR reports makes of a VMIM's {@code spec.priority} ({@link ClusterConfig#migrationPriorityQueue}). */
    private static MigrationCreateDecision.PriorityRule priorityRule(JsonNode kubeVirt) {
        ClusterConfig config = ClusterConfig.defaults();
        if (!kubeVirt.isMissingNode()) {
            try {
                config = ClusterConfig.from(MODEL.convertValue(kubeVirt, KubeVirt.class));
            } catch (IllegalArgumentException | dev.drainboard.kubevirt.config.InvalidClusterConfigException e) {
                // a CR KubeVirt cannot read configures nothing: its defaults
            }
        }
        if (!config.migrationPriorityField()) {
            return MigrationCreateDecision.PriorityRule.NO_FIELD;
        }
        return config.migrationPriorityQueue() ? MigrationCreateDecision.PriorityRule.CONTROLLER_ONLY
                : MigrationCreateDecision.PriorityRule.GATE_OFF;
    }

    /** migration-create-mutator.go: the {@code kubevirt.io/vmi-name} label and the migration finalizer. */
    private static void labelMigration(ObjectNode migration) {
        ObjectNode meta = Json.metadata(migration);
        meta.with("labels").put(KubeVirtLabels.MIGRATION_SELECTOR, migration.path("spec").path("vmiName").asText(""));
        ArrayNode finalizers = meta.withArray("finalizers");
        for (JsonNode f : finalizers) {
            if (f.asText().equals(dev.drainboard.kubevirt.KubeVirtFinalizers.MIGRATION_JOB)) {
                return;
            }
        }
        finalizers.add(dev.drainboard.kubevirt.KubeVirtFinalizers.MIGRATION_JOB);
    }

    private Optional<ResourceType> type(String plural) {
        return api.registry().find(KUBEVIRT_GROUP, "v1", plural);
    }

    private VirtApiConfig config() {
        JsonNode kubeVirt = kubeVirt();
        return VirtApiConfig.from(kubeVirt.isMissingNode() ? null : kubeVirt);
    }

    /** The KubeVirt CR in force, or a missing node. */
    private JsonNode kubeVirt() {
        return kubeVirtInForce(api);
    }

    /** The profile of the release the cluster reports (Drainboard's default without a KubeVirt CR status). */
    static dev.drainboard.kubevirt.KubeVirtProfile profile(ApiServer api) {
        String version = kubeVirtInForce(api).path("status").path("observedKubeVirtVersion").asText(null);
        return dev.drainboard.kubevirt.ProfileChoice.resolve(version, null).profile();
    }

    /** The KubeVirt CRD's resource, when the cluster serves it. */
    static Optional<ResourceType> kubeVirtType(ApiServer api) {
        return api.registry().find(KUBEVIRT_GROUP, "v1", "kubevirts");
    }

    /** The KubeVirt CR in force (as {@link ClusterConfig#select} chooses it), or a missing node. */
    static JsonNode kubeVirtInForce(ApiServer api) {
        Optional<ResourceType> type = kubeVirtType(api);
        if (type.isEmpty()) {
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
        List<ObjectNode> all = api.store().list(type.get(), null, o -> true);
        if (all.isEmpty()) {
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
        List<KubeVirt> models = new ArrayList<>();
        for (ObjectNode o : all) {
            try {
                models.add(MODEL.convertValue(o, KubeVirt.class));
            } catch (IllegalArgumentException e) {
                // a CR KubeVirt could not read is not the one in force
            }
        }
        return ClusterConfig.select(models, "kubevirt")
                .flatMap(k -> all.stream().filter(o -> Json.name(o).equals(k.getMetadata().getName())
                        && Json.namespace(o).equals(k.getMetadata().getNamespace())).findFirst())
                .map(JsonNode.class::cast)
                .orElse(com.fasterxml.jackson.databind.node.MissingNode.getInstance());
    }
}
