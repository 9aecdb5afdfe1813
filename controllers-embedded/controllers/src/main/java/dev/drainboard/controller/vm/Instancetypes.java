package dev.drainboard.controller.vm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.architecture.Pure;
import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.api.InstancetypeMatcher;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstancetypeSpec;
import dev.drainboard.kubevirt.api.VirtualMachinePreferenceSpec;
import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Lays a VM's instance type and preference over the VMI it starts, as KubeVirt's VM controller does
 * ({@code pkg/instancetype/controller/vm} {@code ApplyToVMI}, {@code pkg/instancetype/apply} and
 * {@code pkg/instancetype/preference/apply}). Pure: the specs come in, the VMI is changed in place.
 *
 * <pre>
 * instance type field          VMI field it sets                        conflict when the VMI already has
 * nodeSelector                 spec.nodeSelector                        spec.nodeSelector
 * schedulerName                spec.schedulerName                       spec.schedulerName
 * cpu.guest                    domain.cpu sockets/cores/threads by the   domain.resources.requests/limits.cpu,
 *                              preference's preferredCPUTopology          domain.cpu.sockets/cores/threads
 *                              (default sockets; spread 2:1 by default)
 * cpu.model, dedicatedCPUPlacement, isolateEmulatorThread, numa, realtime, maxSockets: copied      the same field
 * memory.guest                 domain.memory.guest (+ requests.memory   domain.memory.guest, requests/limits.memory
 *                              = guest × (1 − overcommitPercent/100))    (the first of these only)
 * memory.hugepages, maxGuest   copied                                   the same field
 * annotations                  metadata.annotations (same value: fine)  an annotation with another value
 * preference (only where the VMI leaves it unset): cpu.preferredCPUFeatures, machine.preferredMachineType,
 * preferredSubdomain, preferredTerminationGracePeriodSeconds, preferredArchitecture, annotations
 * </pre>
 *
 * Not applied (nothing in a drain depends on them): GPUs, host devices, IOThreads, launch security and the
 * preference's device, feature, firmware and clock defaults. They stay in the instance type as written.
 */
@Pure
public final class Instancetypes {

    /** Kinds of {@code spec.instancetype} and {@code spec.preference}, lower-cased, as KubeVirt compares them. */
    public static final String INSTANCETYPE = "virtualmachineinstancetype";
    public static final String INSTANCETYPES = "virtualmachineinstancetypes";
    public static final String CLUSTER_INSTANCETYPE = "virtualmachineclusterinstancetype";
    public static final String CLUSTER_INSTANCETYPES = "virtualmachineclusterinstancetypes";
    public static final String PREFERENCE = "virtualmachinepreference";
    public static final String PREFERENCES = "virtualmachinepreferences";
    public static final String CLUSTER_PREFERENCE = "virtualmachineclusterpreference";
    public static final String CLUSTER_PREFERENCES = "virtualmachineclusterpreferences";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Instancetypes() {
    }

    /** Which object a matcher names: cluster-wide or in the VM's namespace; null for an unknown kind. */
    public enum Scope { NAMESPACED, CLUSTER }

    public static Scope instancetypeScope(InstancetypeMatcher matcher) {
        String kind = matcher.getKind() == null ? "" : matcher.getKind().toLowerCase(Locale.ROOT);
        return switch (kind) {
            case INSTANCETYPE, INSTANCETYPES -> Scope.NAMESPACED;
            case "", CLUSTER_INSTANCETYPE, CLUSTER_INSTANCETYPES -> Scope.CLUSTER;
            default -> null;
        };
    }

    public static Scope preferenceScope(InstancetypeMatcher matcher) {
        String kind = matcher.getKind() == null ? "" : matcher.getKind().toLowerCase(Locale.ROOT);
        return switch (kind) {
            case PREFERENCE, PREFERENCES -> Scope.NAMESPACED;
            case "", CLUSTER_PREFERENCE, CLUSTER_PREFERENCES -> Scope.CLUSTER;
            default -> null;
        };
    }

    /**
     * Applies both to the VMI (its spec and annotations) and returns the conflicting fields (empty: applied). On a
     * conflict with the instance type nothing of the preference is applied, as in KubeVirt; the caller then does not
     * create the VMI.
     *
     * @param instancetypeRef {@code vm.spec.instancetype} (null: none), for the VMI's annotation
     * @param preferenceRef   {@code vm.spec.preference} (null: none)
     */
    public static List<String> apply(InstancetypeMatcher instancetypeRef, VirtualMachineInstancetypeSpec instancetype,
                                      InstancetypeMatcher preferenceRef, VirtualMachinePreferenceSpec preference,
                                      VirtualMachineInstance vmi) {
        if (instancetype == null && preference == null) {
            return List.of();
        }
        Map<String, String> annotations = vmi.getMetadata().getAnnotations() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(vmi.getMetadata().getAnnotations());
        if (instancetypeRef != null) {
            Scope scope = instancetypeScope(instancetypeRef);
            if (scope != null) {
                annotations.put(scope == Scope.NAMESPACED ? KubeVirtAnnotations.INSTANCETYPE_NAME
                        : KubeVirtAnnotations.CLUSTER_INSTANCETYPE_NAME, instancetypeRef.getName());
            }
        }
        if (preferenceRef != null) {
            Scope scope = preferenceScope(preferenceRef);
            if (scope != null) {
                annotations.put(scope == Scope.NAMESPACED ? KubeVirtAnnotations.PREFERENCE_NAME
                        : KubeVirtAnnotations.CLUSTER_PREFERENCE_NAME, preferenceRef.getName());
            }
        }
        ObjectNode spec = vmi.getSpec() == null ? MAPPER.createObjectNode() : MAPPER.valueToTree(vmi.getSpec());
        ObjectNode pref = preference == null ? null : MAPPER.valueToTree(preference);
        if (instancetype != null) {
            ObjectNode it = MAPPER.valueToTree(instancetype);
            List<String> conflicts = new ArrayList<>();
            conflicts.addAll(nodeSelector(it, spec));
            conflicts.addAll(schedulerName(it, spec));
            conflicts.addAll(cpu(it, pref, spec));
            conflicts.addAll(memory(it, spec));
            conflicts.addAll(instancetypeAnnotations(it, annotations));
            if (!conflicts.isEmpty()) {
                return conflicts;
            }
        }
        if (pref != null) {
            preferences(pref, spec, annotations);
        }
        vmi.getMetadata().setAnnotations(annotations);
        vmi.setSpec(MAPPER.convertValue(spec, VirtualMachineInstanceSpec.class));
        return List.of();
    }

    /** The VM controller's error for conflicts (KubeVirt's {@code ApplyToVMI}). */
    public static String conflictMessage(List<String> conflicts) {
        return KubeVirtMessages.VMI_CONFLICTS_WITH_INSTANCETYPE.formatted(String.join(", ", conflicts));
    }

    private static List<String> nodeSelector(ObjectNode it, ObjectNode spec) {
        if (!present(it.get("nodeSelector"))) {
            return List.of();
        }
        if (present(spec.get("nodeSelector"))) {
            return List.of("spec.nodeSelector");
        }
        spec.set("nodeSelector", it.get("nodeSelector").deepCopy());
        return List.of();
    }

    private static List<String> schedulerName(ObjectNode it, ObjectNode spec) {
        String name = it.path("schedulerName").asText("");
        if (name.isEmpty()) {
            return List.of();
        }
        if (!spec.path("schedulerName").asText("").isEmpty()) {
            return List.of("spec.schedulerName");
        }
        spec.put("schedulerName", name);
        return List.of();
    }

    private static List<String> cpu(ObjectNode it, ObjectNode pref, ObjectNode spec) {
        ObjectNode itCpu = it.path("cpu") instanceof ObjectNode o ? o : MAPPER.createObjectNode();
        ObjectNode domain = child(spec, "domain");
        ObjectNode cpu = child(domain, "cpu");
        List<String> conflicts = new ArrayList<>();
        if (present(domain.path("resources").path("requests").get("cpu"))) {
            conflicts.add("spec.domain.resources.requests.cpu");
        }
        if (present(domain.path("resources").path("limits").get("cpu"))) {
            conflicts.add("spec.domain.resources.limits.cpu");
        }
        for (String field : List.of("sockets", "cores", "threads")) {
            if (cpu.path(field).asLong(0) != 0) {
                conflicts.add("spec.domain.cpu." + field);
            }
        }
        if (!cpu.path("model").asText("").isEmpty() && present(itCpu.get("model"))) {
            conflicts.add("spec.domain.cpu.model");
        }
        if (cpu.path("dedicatedCpuPlacement").asBoolean(false) && present(itCpu.get("dedicatedCPUPlacement"))) {
            conflicts.add("spec.domain.cpu.dedicatedCPUPlacement");
        }
        if (cpu.path("isolateEmulatorThread").asBoolean(false) && present(itCpu.get("isolateEmulatorThread"))) {
            conflicts.add("spec.domain.cpu.isolateEmulatorThread");
        }
        for (String field : List.of("numa", "realtime")) {
            if (present(cpu.get(field)) && present(itCpu.get(field))) {
                conflicts.add("spec.domain.cpu." + field);
            }
        }
        if (!conflicts.isEmpty()) {
            return conflicts;
        }
        copy(itCpu, "model", cpu, "model");
        // The VMI spells it dedicatedCpuPlacement, the instance type dedicatedCPUPlacement.
        copy(itCpu, "dedicatedCPUPlacement", cpu, "dedicatedCpuPlacement");
        copy(itCpu, "isolateEmulatorThread", cpu, "isolateEmulatorThread");
        copy(itCpu, "numa", cpu, "numa");
        copy(itCpu, "realtime", cpu, "realtime");
        copy(itCpu, "maxSockets", cpu, "maxSockets");
        long vcpus = itCpu.path("guest").asLong(0);
        long[] topology = topology(vcpus, pref);
        cpu.put("cores", topology[1]);
        cpu.put("sockets", topology[0]);
        cpu.put("threads", topology[2]);
        return List.of();
    }

    /**
     * {sockets, cores, threads} for {@code vcpus} by the preference's {@code cpu.preferredCPUTopology} (KubeVirt's
     * {@code applyGuestCPUTopology}: sockets by default; spread puts {@code ratio} cores per socket, or threads per
     * core, by {@code spreadOptions}; the deprecated {@code prefer*} spellings mean the same).
     */
    static long[] topology(long vcpus, ObjectNode pref) {
        long sockets = 1;
        long cores = 1;
        long threads = 1;
        if (vcpus == 1) {
            return new long[] {sockets, cores, threads};
        }
        String preferred = pref == null ? "" : pref.path("cpu").path("preferredCPUTopology").asText("");
        switch (preferred) {
            case "preferCores", "cores" -> cores = vcpus;
            case "preferThreads", "threads" -> threads = vcpus;
            case "preferSpread", "spread" -> {
                long ratio = pref.path("preferSpreadSocketToCoreRatio").asLong(0) != 0
                        ? pref.path("preferSpreadSocketToCoreRatio").asLong() : 2;
                String across = "SocketsCores";
                JsonNode options = pref.path("cpu").path("spreadOptions");
                if (options.hasNonNull("across")) {
                    across = options.get("across").asText();
                }
                if (options.hasNonNull("ratio")) {
                    ratio = options.get("ratio").asLong();
                }
                switch (across) {
                    case "SocketsCores" -> {
                        cores = ratio;
                        sockets = vcpus / ratio;
                    }
                    case "CoresThreads" -> {
                        threads = ratio;
                        cores = vcpus / ratio;
                    }
                    case "SocketsCoresThreads" -> {
                        threads = 2;
                        cores = ratio;
                        sockets = vcpus / 2 / ratio;
                    }
                    default -> {
                    }
                }
            }
            default -> sockets = vcpus; // "", sockets, any and their deprecated spellings
        }
        return new long[] {sockets, cores, threads};
    }

    private static List<String> memory(ObjectNode it, ObjectNode spec) {
        ObjectNode itMemory = it.path("memory") instanceof ObjectNode o ? o : MAPPER.createObjectNode();
        ObjectNode domain = child(spec, "domain");
        ObjectNode memory = child(domain, "memory");
        // KubeVirt reports only the first of these.
        if (present(memory.get("guest"))) {
            return List.of("spec.domain.memory.guest");
        }
        if (present(memory.get("hugepages")) && present(itMemory.get("hugepages"))) {
            return List.of("spec.domain.memory.hugepages");
        }
        if (present(memory.get("maxGuest")) && present(itMemory.get("maxGuest"))) {
            return List.of("spec.domain.memory.maxGuest");
        }
        if (present(domain.path("resources").path("requests").get("memory"))) {
            return List.of("spec.domain.resources.requests.memory");
        }
        if (present(domain.path("resources").path("limits").get("memory"))) {
            return List.of("spec.domain.resources.limits.memory");
        }
        if (present(itMemory.get("guest"))) {
            memory.set("guest", itMemory.get("guest").deepCopy());
            long overcommit = itMemory.path("overcommitPercent").asLong(0);
            if (overcommit > 0) {
                BigDecimal guest = Quantity.getAmountInBytes(new Quantity(itMemory.get("guest").asText()));
                // KubeVirt computes this in float32: guest × (1 − percent/100), truncated to bytes.
                long request = (long) (guest.floatValue() * (1 - (float) overcommit / 100));
                child(child(domain, "resources"), "requests").put("memory", Long.toString(request));
            }
        }
        copy(itMemory, "hugepages", memory, "hugepages");
        copy(itMemory, "maxGuest", memory, "maxGuest");
        return List.of();
    }

    private static List<String> instancetypeAnnotations(ObjectNode it, Map<String, String> annotations) {
        List<String> conflicts = new ArrayList<>();
        it.path("annotations").properties().forEach(e -> {
            String existing = annotations.get(e.getKey());
            if (existing == null) {
                annotations.put(e.getKey(), e.getValue().asText());
            } else if (!existing.equals(e.getValue().asText())) {
                conflicts.add("annotations." + e.getKey());
            }
        });
        return conflicts;
    }

    private static void preferences(ObjectNode pref, ObjectNode spec, Map<String, String> annotations) {
        JsonNode features = pref.path("cpu").path("preferredCPUFeatures");
        if (features.isArray() && !features.isEmpty()) {
            ObjectNode cpu = child(child(spec, "domain"), "cpu");
            ArrayNode list = cpu.path("features") instanceof ArrayNode a ? a : cpu.putArray("features");
            Set<String> names = new HashSet<>();
            list.forEach(f -> names.add(f.path("name").asText()));
            features.forEach(f -> {
                if (names.add(f.path("name").asText())) {
                    list.add(f.deepCopy());
                }
            });
        }
        String machine = pref.path("machine").path("preferredMachineType").asText("");
        if (!machine.isEmpty()) {
            ObjectNode m = child(child(spec, "domain"), "machine");
            if (m.path("type").asText("").isEmpty()) {
                m.put("type", machine);
            }
        }
        String subdomain = pref.path("preferredSubdomain").asText("");
        if (!subdomain.isEmpty() && spec.path("subdomain").asText("").isEmpty()) {
            spec.put("subdomain", subdomain);
        }
        if (present(pref.get("preferredTerminationGracePeriodSeconds")) && !present(spec.get("terminationGracePeriodSeconds"))) {
            spec.put("terminationGracePeriodSeconds", pref.get("preferredTerminationGracePeriodSeconds").asLong());
        }
        String architecture = pref.path("preferredArchitecture").asText("");
        if (!architecture.isEmpty() && spec.path("architecture").asText("").isEmpty()) {
            spec.put("architecture", architecture);
        }
        pref.path("annotations").properties().forEach(e -> annotations.putIfAbsent(e.getKey(), e.getValue().asText()));
    }

    private static boolean present(JsonNode node) {
        return node != null && !node.isNull() && !node.isMissingNode();
    }

    private static void copy(ObjectNode from, String field, ObjectNode to, String as) {
        if (present(from.get(field))) {
            to.set(as, from.get(field).deepCopy());
        }
    }

    private static ObjectNode child(ObjectNode parent, String field) {
        return parent.get(field) instanceof ObjectNode o ? o : parent.putObject(field);
    }
}
