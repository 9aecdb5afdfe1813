package dev.drainboard.controller.vmi;

import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.KubeVirtDefaults;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.kubevirt.DeschedulerAnnotations;
import dev.drainboard.kubevirt.api.DomainSpec;
import dev.drainboard.kubevirt.api.KubeVirtResource;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodReadinessGate;
import io.fabric8.kubernetes.api.model.Quantity;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders the virt-launcher pod of a VMI (as KubeVirt's {@code pkg/virt-controller/services/template.go} does). Pure:
 * the same VMI always gives the same pod, so tables can pin every label, annotation and number.
 */
public final class LauncherPods {

    /** VMI annotations starting with these stay off the pod. */
    static final List<String> NOT_COPIED_ANNOTATION_PREFIXES = List.of(
            KubeVirtAnnotations.KUBECTL_PREFIX, KubeVirtAnnotations.STORAGE_OBSERVED_API_VERSION, KubeVirtAnnotations.LATEST_OBSERVED_API_VERSION);

    /**
     * Memory the launcher needs besides the guest (QEMU, libvirt, page tables), added when the VMI names only
     * {@code memory.guest}. KubeVirt computes it from the VMI; a fixed figure keeps scheduling predictable.
     */
    public static final Quantity MEMORY_OVERHEAD = new Quantity("256Mi");
    /** CPU requested per vCPU when the VMI requests none: 1/10 of a core (KubeVirt's default allocation ratio). */
    static final BigDecimal CPU_PER_VCPU = new BigDecimal("0.1");
    private static final int LABEL_VALUE_MAX = 63;

    private LauncherPods() {
    }

    /** The pod to create for the VMI: metadata, owner, grace period, resources and placement. */
    public static Pod render(VirtualMachineInstance vmi) {
        String name = vmi.getMetadata().getName();
        VirtualMachineInstanceSpec spec = vmi.getSpec() == null ? new VirtualMachineInstanceSpec() : vmi.getSpec();
        long vmiGrace = vmiGracePeriodSeconds(vmi);
        return new PodBuilder()
                .withNewMetadata()
                    .withGenerateName(KubeVirtValues.LAUNCHER_POD_PREFIX + name + "-")
                    .withNamespace(vmi.getMetadata().getNamespace())
                    .withLabels(labels(vmi))
                    .withAnnotations(annotations(vmi))
                    .withOwnerReferences(ownerReference(vmi))
                .endMetadata()
                .withNewSpec()
                    .withRestartPolicy("Never")
                    .withReadinessGates(new PodReadinessGate(KubeVirtValues.READINESS_GATE_UNPAUSED))
                    .withTerminationGracePeriodSeconds(podGracePeriodSeconds(vmi))
                    .withAutomountServiceAccountToken(false)
                    .withNodeSelector(spec.getNodeSelector() == null ? null : new LinkedHashMap<>(spec.getNodeSelector()))
                    .withAffinity(spec.getAffinity())
                    .withTolerations(copy(spec.getTolerations()))
                    .withPriorityClassName(spec.getPriorityClassName())
                    .withSchedulerName(spec.getSchedulerName())
                    .withContainers(new ContainerBuilder()
                            .withName(KubeVirtValues.LAUNCHER_COMPUTE_CONTAINER)
                            .withImage(KubeVirtValues.LAUNCHER_IMAGE)
                            .withCommand("/usr/bin/virt-launcher-monitor",
                                    "--name", name,
                                    "--uid", vmi.getMetadata().getUid(),
                                    "--namespace", vmi.getMetadata().getNamespace(),
                                    "--grace-period-seconds", Long.toString(vmiGrace + KubeVirtDefaults.LAUNCHER_GRACE_PADDING_SECONDS))
                            .withNewResources()
                                .withRequests(requests(spec))
                                .withLimits(limits(spec))
                            .endResources()
                            .build())
                .endSpec()
                .build();
    }

    /** {@code spec.terminationGracePeriodSeconds}, or KubeVirt's default of 30 s. */
    public static long vmiGracePeriodSeconds(VirtualMachineInstance vmi) {
        Long grace = vmi.getSpec() == null ? null : vmi.getSpec().getTerminationGracePeriodSeconds();
        return grace != null ? grace : KubeVirtDefaults.GRACE_PERIOD_SECONDS;
    }

    /**
     * The pod's grace period: the VMI's plus 15 s for virt-launcher's monitor to kill QEMU plus 15 s more before the
     * kubelet's SIGKILL, so the guest always gets its full grace period first (60 s by default).
     */
    public static long podGracePeriodSeconds(VirtualMachineInstance vmi) {
        return vmiGracePeriodSeconds(vmi) + 2 * KubeVirtDefaults.LAUNCHER_GRACE_PADDING_SECONDS;
    }

    static Map<String, String> labels(VirtualMachineInstance vmi) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (vmi.getMetadata().getLabels() != null) {
            labels.putAll(vmi.getMetadata().getLabels());
        }
        labels.put(KubeVirtLabels.APP, KubeVirtLabels.APP_VIRT_LAUNCHER);
        labels.put(KubeVirtLabels.CREATED_BY, vmi.getMetadata().getUid());
        labels.put(KubeVirtLabels.DEPRECATED_VM_NAME, hostname(vmi));
        labels.put(KubeVirtLabels.VMI_ID, vmiIdLabel(vmi.getMetadata().getName()));
        return labels;
    }

    static Map<String, String> annotations(VirtualMachineInstance vmi) {
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(KubeVirtAnnotations.DOMAIN, vmi.getMetadata().getName());
        if (vmi.getMetadata().getAnnotations() != null) {
            vmi.getMetadata().getAnnotations().forEach((key, value) -> {
                if (NOT_COPIED_ANNOTATION_PREFIXES.stream().noneMatch(key::startsWith)) {
                    annotations.put(key, value);
                }
            });
        }
        annotations.put(KubeVirtAnnotations.KUBECTL_DEFAULT_CONTAINER, KubeVirtAnnotations.DEFAULT_CONTAINER_COMPUTE);
        annotations.put(KubeVirtAnnotations.MIGRATION_TRANSPORT_UNIX, "true");
        DeschedulerAnnotations.addLauncherAnnotations(annotations);
        return annotations;
    }

    static OwnerReference ownerReference(VirtualMachineInstance vmi) {
        return new OwnerReferenceBuilder()
                .withApiVersion(KubeVirtResource.API_VERSION)
                .withKind("VirtualMachineInstance")
                .withName(vmi.getMetadata().getName())
                .withUid(vmi.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }

    /**
     * {@code vmi.kubevirt.io/id}: the VMI name when it fits a label value (63 characters); otherwise its first 54
     * characters, a dash and the first 8 hex digits of the name's SHA-1, which stays unique and fits.
     */
    public static String vmiIdLabel(String vmiName) {
        if (vmiName.length() <= LABEL_VALUE_MAX) {
            return vmiName;
        }
        return vmiName.substring(0, 54) + "-" + sha1Hex(vmiName).substring(0, 8);
    }

    /** {@code vm.kubevirt.io/name}: {@code spec.hostname}, else the VMI name up to its first dot; at most 63 characters. */
    static String hostname(VirtualMachineInstance vmi) {
        Object specHostname = vmi.getSpec() == null ? null : vmi.getSpec().getAdditionalProperties().get("hostname");
        String hostname = specHostname instanceof String s && !s.isEmpty() ? s : vmi.getMetadata().getName().split("\\.", 2)[0];
        return hostname.length() > LABEL_VALUE_MAX ? hostname.substring(0, LABEL_VALUE_MAX) : hostname;
    }

    /**
     * The compute container's requests: {@code domain.resources.requests} as given; without a memory request,
     * {@code memory.guest} plus {@link #MEMORY_OVERHEAD}; without a CPU request, 100m per vCPU.
     */
    static Map<String, Quantity> requests(VirtualMachineInstanceSpec spec) {
        DomainSpec domain = spec.getDomain();
        Map<String, Quantity> requests = new LinkedHashMap<>();
        if (domain != null && domain.getResources() != null && domain.getResources().getRequests() != null) {
            requests.putAll(domain.getResources().getRequests());
        }
        if (!requests.containsKey("memory") && domain != null && domain.getMemory() != null && domain.getMemory().getGuest() != null) {
            BigDecimal bytes = domain.getMemory().getGuest().getNumericalAmount().add(MEMORY_OVERHEAD.getNumericalAmount());
            requests.put("memory", new Quantity(bytes.divide(BigDecimal.valueOf(1024 * 1024)).toBigInteger() + "Mi"));
        }
        if (!requests.containsKey("cpu")) {
            BigDecimal cpu = CPU_PER_VCPU.multiply(BigDecimal.valueOf(vcpus(domain)));
            requests.put("cpu", new Quantity(cpu.movePointRight(3).toBigInteger() + "m"));
        }
        return requests;
    }

    static Map<String, Quantity> limits(VirtualMachineInstanceSpec spec) {
        DomainSpec domain = spec.getDomain();
        if (domain == null || domain.getResources() == null || domain.getResources().getLimits() == null) {
            return null;
        }
        return new LinkedHashMap<>(domain.getResources().getLimits());
    }

    static long vcpus(DomainSpec domain) {
        if (domain == null || domain.getCpu() == null) {
            return 1;
        }
        DomainSpec.Cpu cpu = domain.getCpu();
        return (long) orOne(cpu.getCores()) * orOne(cpu.getSockets()) * orOne(cpu.getThreads());
    }

    private static int orOne(Integer n) {
        return n == null || n < 1 ? 1 : n;
    }

    private static String sha1Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-1", e);
        }
    }

    /** Copies a list so the rendered pod never shares mutable state with the cached VMI. */
    static <T> List<T> copy(List<T> list) {
        return list == null ? null : new ArrayList<>(list);
    }
}
