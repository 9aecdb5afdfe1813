package dev.drainboard.cluster.virtapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.architecture.Pure;
import dev.drainboard.units.Quantities;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The defaults virt-api's VMI mutating webhook gives a new VMI (pkg/virt-api/webhooks/mutating-webhook/mutators/
 * vmi-mutator.go, pkg/defaults/defaults.go and amd64.go, pkg/network/vmispec/defaults.go, pkg/util/util.go,
 * staging/src/kubevirt.io/api/core/v1/defaults.go), in their order, for an amd64 cluster:
 * <ul>
 *   <li>spec: {@code architecture: amd64}; {@code domain.machine.type: q35}; a CPU request equal to a CPU limit
 *   without one; {@code domain.memory.guest} from the memory request, else the limit, else the hugepage size;
 *   a CPU topology (sockets from the CPU limit, else the request, else 1; one core, one thread) when none is given;
 *   container disks' {@code imagePullPolicy}; the cluster's {@code evictionStrategy} when the VMI has none; the pod
 *   network {@code default} and its interface {@code default}, bound as the KubeVirt CR's
 *   {@code network.defaultNetworkInterface} says (bridge unless set), when the VMI declares neither networks nor
 *   interfaces (unless {@code domain.devices.autoattachPodInterface: false}); a disk for each volume without a disk or
 *   filesystem; {@code firmware} (with a UUID) and {@code features}; {@code disk: {}} for disks without a target; a
 *   CD-ROM read-only and closed; SATA for targets without a bus; inputs USB tablets; CPU model
 *   {@code host-model};</li>
 *   <li>metadata: the finalizer {@code kubevirt.io/foregroundDeleteVirtualMachine};</li>
 *   <li>status: {@code phase: Pending} with its transition timestamp, {@code memory} (guest at boot, current,
 *   requested), {@code currentCPUTopology}, {@code runtimeUser: 107} (KubeVirt runs VMs as non-root).</li>
 * </ul>
 * Not done: CPU and memory hotplug limits ({@code maxSockets}, {@code maxGuest}), Hyper-V dependencies, presets,
 * cluster CPU model and CPU request settings, other architectures.
 */
@Pure
public final class VmiDefaults {

    public static final String FINALIZER = "kubevirt.io/foregroundDeleteVirtualMachine";
    public static final String DEFAULT_NETWORK = "default";
    private static final BigDecimal ZERO = BigDecimal.ZERO;

    private VmiDefaults() {
    }

    /**
     * Defaults a new VMI in place.
     *
     * @param firmwareUuid the UUID for {@code firmware.uuid} when the VMI has none (KubeVirt draws a random one)
     * @param now          the creation time, for the Pending phase's transition timestamp (RFC 3339)
     * @return the mutator's error (400 from {@code virtualmachineinstances-mutator.kubevirt.io}), if any
     */
    public static Optional<String> apply(ObjectNode vmi, VirtApiConfig config, String firmwareUuid, String now) {
        if (!(vmi.get("spec") instanceof ObjectNode spec)) {
            return Optional.empty(); // refused by validation: spec is required
        }
        Optional<String> error = defaultSpec(spec, config);
        if (error.isPresent()) {
            return error;
        }
        ObjectNode domain = spec.with("domain");
        if (!domain.has("firmware") || domain.get("firmware").isNull()) {
            domain.putObject("firmware");
        }
        if (!domain.has("features") || domain.get("features").isNull()) {
            domain.putObject("features");
        }
        ObjectNode firmware = (ObjectNode) domain.get("firmware");
        if (firmware.path("uuid").asText("").isEmpty()) {
            firmware.put("uuid", firmwareUuid);
        }
        ObjectNode devices = domain.with("devices");
        for (JsonNode d : devices.path("disks")) {
            if (d instanceof ObjectNode disk) {
                defaultDisk(disk);
            }
        }
        for (JsonNode i : devices.path("inputs")) {
            if (i instanceof ObjectNode input) {
                putIfEmpty(input, "bus", "usb");
                putIfEmpty(input, "type", "tablet");
            }
        }
        ObjectNode cpu = domain.with("cpu");
        putIfEmpty(cpu, "model", "host-model");

        ObjectNode meta = vmi.with("metadata");
        ArrayNode finalizers = meta.withArray("finalizers");
        if (!contains(finalizers, FINALIZER)) {
            finalizers.add(FINALIZER);
        }
        ObjectNode status = vmi.with("status");
        if (status.path("phase").asText("").isEmpty()) {
            status.put("phase", "Pending");
            ObjectNode transition = status.withArray("phaseTransitionTimestamps").addObject();
            transition.put("phase", "Pending");
            transition.put("phaseTransitionTimestamp", now);
            JsonNode guest = domain.path("memory").path("guest");
            if (!guest.isMissingNode() && !guest.isNull()) {
                ObjectNode memory = status.putObject("memory");
                memory.set("guestAtBoot", guest.deepCopy());
                memory.set("guestCurrent", guest.deepCopy());
                memory.set("guestRequested", guest.deepCopy());
            }
            ObjectNode topology = status.putObject("currentCPUTopology");
            for (String f : new String[] {"sockets", "cores", "threads"}) {
                if (cpu.has(f)) {
                    topology.set(f, cpu.get(f));
                }
            }
            status.put("runtimeUser", 107);
        }
        return Optional.empty();
    }

    /**
     * {@code SetDefaultVirtualMachineInstanceSpec}: what the VMI mutator and the VM admitter (on a copy of the VM's
     * template, before validating it) both apply.
     */
    public static Optional<String> defaultSpec(ObjectNode spec, VirtApiConfig config) {
        putIfEmpty(spec, "architecture", "amd64");
        ObjectNode domain = spec.with("domain");
        putIfEmpty(domain.with("machine"), "type", "q35");
        ObjectNode resources = domain.with("resources");
        JsonNode cpuLimit = resources.path("limits").path("cpu");
        if (isPositive(cpuLimit) && !isPositive(resources.path("requests").path("cpu"))) {
            resources.with("requests").set("cpu", cpuLimit.deepCopy());
        }
        defaultGuestMemory(domain);
        defaultCpuTopology(domain);
        for (JsonNode v : spec.path("volumes")) {
            if (v.path("containerDisk") instanceof ObjectNode containerDisk
                    && containerDisk.path("imagePullPolicy").asText("").isEmpty()) {
                String image = containerDisk.path("image").asText("");
                boolean latest = image.endsWith(":latest") || (!image.contains(":") && !image.contains("@"));
                containerDisk.put("imagePullPolicy", latest ? "Always" : "IfNotPresent");
            }
        }
        if (!spec.hasNonNull("evictionStrategy") && config.evictionStrategy() != null) {
            spec.put("evictionStrategy", config.evictionStrategy());
        }
        Optional<String> error = defaultNetworkInterface(spec, domain.with("devices"), config);
        if (error.isPresent()) {
            return error;
        }
        defaultVolumeDisks(spec, domain.with("devices"));
        return Optional.empty();
    }

    private static void defaultGuestMemory(ObjectNode domain) {
        JsonNode existing = domain.path("memory").path("guest");
        if (!existing.isMissingNode() && !existing.isNull()) {
            return;
        }
        ObjectNode memory = domain.with("memory");
        JsonNode request = domain.path("resources").path("requests").path("memory");
        JsonNode limit = domain.path("resources").path("limits").path("memory");
        if (isNonZero(request)) {
            memory.set("guest", request.deepCopy());
        } else if (isNonZero(limit)) {
            memory.set("guest", limit.deepCopy());
        } else if (memory.path("hugepages").path("pageSize").isTextual() && isNonZero(memory.path("hugepages").path("pageSize"))) {
            memory.set("guest", memory.path("hugepages").path("pageSize").deepCopy());
        }
    }

    private static void defaultCpuTopology(ObjectNode domain) {
        JsonNode cpu = domain.path("cpu");
        if (cpu.path("cores").asLong(0) != 0 || cpu.path("sockets").asLong(0) != 0 || cpu.path("threads").asLong(0) != 0) {
            return;
        }
        long sockets = 1;
        JsonNode limit = domain.path("resources").path("limits").path("cpu");
        JsonNode request = domain.path("resources").path("requests").path("cpu");
        if (!limit.isMissingNode() && !limit.isNull()) {
            sockets = wholeUnits(limit);
        } else if (!request.isMissingNode() && !request.isNull()) {
            sockets = wholeUnits(request);
        }
        ObjectNode c = domain.with("cpu");
        c.put("sockets", sockets);
        c.put("cores", 1);
        c.put("threads", 1);
    }

    /** {@code vmispec.SetDefaultNetworkInterface}. */
    private static Optional<String> defaultNetworkInterface(ObjectNode spec, ObjectNode devices, VirtApiConfig config) {
        if (devices.path("autoattachPodInterface").isBoolean() && !devices.path("autoattachPodInterface").asBoolean()) {
            return Optional.empty();
        }
        if (!spec.path("networks").isEmpty() || !devices.path("interfaces").isEmpty()) {
            return Optional.empty();
        }
        switch (config.defaultNetworkInterface()) {
            case VirtApiConfig.BRIDGE -> {
                if (!config.permitBridgeInterfaceOnPodNetwork()) {
                    return Optional.of("bridge interface is not enabled in kubevirt-config");
                }
                ObjectNode iface = devices.putArray("interfaces").addObject();
                iface.put("name", DEFAULT_NETWORK);
                iface.putObject("bridge");
            }
            case VirtApiConfig.MASQUERADE -> {
                ObjectNode iface = devices.putArray("interfaces").addObject();
                iface.put("name", DEFAULT_NETWORK);
                iface.putObject("masquerade");
            }
            case VirtApiConfig.SLIRP -> {
                return Optional.of("slirp interface is deprecated as of v1.3");
            }
            default -> {
                // KubeVirt adds the network but no interface for another value
            }
        }
        ObjectNode network = spec.putArray("networks").addObject();
        network.put("name", DEFAULT_NETWORK);
        network.putObject("pod");
        return Optional.empty();
    }

    /** {@code util.SetDefaultVolumeDisk}: every volume is attached, as a disk unless a disk or filesystem names it. */
    private static void defaultVolumeDisks(ObjectNode spec, ObjectNode devices) {
        Set<String> attached = new HashSet<>();
        devices.path("disks").forEach(d -> attached.add(d.path("name").asText()));
        devices.path("filesystems").forEach(f -> attached.add(f.path("name").asText()));
        for (JsonNode volume : spec.path("volumes")) {
            String name = volume.path("name").asText();
            if (!attached.contains(name)) {
                devices.withArray("disks").addObject().put("name", name);
                attached.add(name);
            }
        }
    }

    /** {@code SetDefaults_DiskDevice}, {@code SetDefaults_CDRomTarget} and amd64's SATA bus. */
    private static void defaultDisk(ObjectNode disk) {
        if (!disk.has("disk") && !disk.has("cdrom") && !disk.has("lun")) {
            disk.putObject("disk");
        }
        if (disk.get("cdrom") instanceof ObjectNode cdrom) {
            if (!cdrom.has("readonly")) {
                cdrom.put("readonly", true);
            }
            putIfEmpty(cdrom, "tray", "closed");
        }
        for (String target : new String[] {"disk", "cdrom", "lun"}) {
            if (disk.get(target) instanceof ObjectNode t) {
                putIfEmpty(t, "bus", "sata");
            }
        }
    }

    private static void putIfEmpty(ObjectNode node, String field, String value) {
        if (node.path(field).asText("").isEmpty()) {
            node.put(field, value);
        }
    }

    private static boolean contains(ArrayNode array, String value) {
        for (JsonNode n : array) {
            if (n.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }

    static BigDecimal quantity(JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return ZERO;
        }
        try {
            return Quantities.parse(node.asText());
        } catch (IllegalArgumentException e) {
            return ZERO;
        }
    }

    private static boolean isNonZero(JsonNode node) {
        return quantity(node).signum() != 0;
    }

    private static boolean isPositive(JsonNode node) {
        return quantity(node).signum() > 0;
    }

    /** Go's {@code Quantity.Value()}: rounded up to a whole unit. */
    private static long wholeUnits(JsonNode node) {
        return quantity(node).setScale(0, RoundingMode.CEILING).longValue();
    }
}
