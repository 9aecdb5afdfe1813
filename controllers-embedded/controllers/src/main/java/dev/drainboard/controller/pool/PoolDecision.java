package dev.drainboard.controller.pool;

import dev.drainboard.architecture.Pure;
import dev.drainboard.controller.informers.SharedInformers;
import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachinePool;
import dev.drainboard.kubevirt.replicaset.ReplicaSetSelector;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * One pass of KubeVirt's pool controller ({@code pkg/virt-controller/watch/pool/pool.go}, {@code execute},
 * {@code scale}, {@code scaleOut}, {@code scaleIn}, {@code calculateNewVMNames}, {@code updateStatus}). Pure: the
 * pool, its namespace's VMs and the expectations in, a {@link PoolPlan} out.
 *
 * <pre>
 * claims             owned VMs the selector no longer matches are released; orphans it matches (not being deleted)
 *                    adopted; VMs controlled by anything else are never touched
 * the pool's VMs     owned + adopted, those being deleted included
 * diff               VMs − spec.replicas (null: 1)
 * diff &lt; 0          create min(−diff, burst) VMs named pool-0, pool-1, … taking the lowest indexes no VM of the
 *                    namespace has (so a deleted VM comes back under its name once it is gone)
 * diff &gt; 0          delete min(diff, burst) − (VMs being deleted) of the others, in the scale-in order:
 *                    spec.scaleInStrategy.proactive.selectionPolicy.sortPolicy — AscendingOrder / DescendingOrder
 *                    (by index), Newest / Oldest (creationTimestamp), Random (the default, and for an unknown value)
 * no scaling         while the controller's creations and deletions are not all seen (expectations), the pool is
 *                    paused or being deleted
 * status             replicas = the pool's VMs; readyReplicas = those with Ready=True; labelSelector
 * </pre>
 */
@Pure
public final class PoolDecision {

    public static final String KIND = "VirtualMachinePool";

    private PoolDecision() {
    }

    /**
     * @param random shuffles the scale-in candidates for the Random sort policy (the loop's own generator; a test's
     *               seeded one)
     */
    public static PoolPlan decide(VirtualMachinePool pool, ReplicaSetSelector selector, List<VirtualMachine> namespaceVms,
                                  boolean expectationsSatisfied, int burst, RandomGenerator random) {
        String uid = pool.getMetadata().getUid();
        List<VirtualMachine> release = new ArrayList<>();
        List<VirtualMachine> adopt = new ArrayList<>();
        List<VirtualMachine> vms = new ArrayList<>();
        for (VirtualMachine vm : namespaceVms) {
            var controller = SharedInformers.controllerOf(vm);
            boolean matches = selector.matches(vm.getMetadata().getLabels());
            if (controller.isPresent()) {
                if (!Objects.equals(controller.get().getUid(), uid)) {
                    continue;
                }
                if (matches) {
                    vms.add(vm);
                } else if (vm.getMetadata().getDeletionTimestamp() == null) {
                    release.add(vm);
                }
            } else if (matches && vm.getMetadata().getDeletionTimestamp() == null && pool.getMetadata().getDeletionTimestamp() == null) {
                adopt.add(vm);
                vms.add(vm);
            }
        }

        boolean paused = Boolean.TRUE.equals(pool.getSpec().getPaused());
        boolean scaling = expectationsSatisfied && !paused && pool.getMetadata().getDeletionTimestamp() == null;
        List<String> create = List.of();
        List<VirtualMachine> delete = List.of();
        if (scaling) {
            int wanted = pool.getSpec().getReplicas() == null ? 1 : pool.getSpec().getReplicas();
            int diff = vms.size() - wanted;
            int max = Math.min(Math.abs(diff), burst);
            if (diff < 0) {
                Set<String> taken = new HashSet<>();
                namespaceVms.forEach(vm -> taken.add(vm.getMetadata().getName()));
                create = newNames(pool.getMetadata().getName(), max, taken);
            } else if (diff > 0) {
                List<VirtualMachine> eligible = new ArrayList<>(vms.stream()
                        .filter(vm -> vm.getMetadata().getDeletionTimestamp() == null).toList());
                int count = Math.min(max - (vms.size() - eligible.size()), eligible.size());
                if (count > 0) {
                    sort(eligible, sortPolicy(pool), random);
                    delete = List.copyOf(eligible.subList(0, count));
                }
            }
        }
        int ready = (int) vms.stream().filter(PoolDecision::ready).count();
        return new PoolPlan(release, adopt, create, delete, scaling, vms.size(), ready, selector.toString());
    }

    /** {@code count} names {@code <pool>-<i>}, the lowest indexes not taken (KubeVirt's {@code calculateNewVMNames}). */
    static List<String> newNames(String pool, int count, Set<String> taken) {
        List<String> names = new ArrayList<>();
        int i = 0;
        while (names.size() < count) {
            String name = pool + "-" + i++;
            if (!taken.contains(name)) {
                names.add(name);
            }
        }
        return names;
    }

    /** {@code spec.scaleInStrategy.proactive.selectionPolicy.sortPolicy}, "Random" when unset. */
    @SuppressWarnings("unchecked")
    static String sortPolicy(VirtualMachinePool pool) {
        Object strategy = pool.getSpec().getAdditionalProperties().get("scaleInStrategy");
        Object value = dig(strategy, "proactive", "selectionPolicy", "sortPolicy");
        return value instanceof String s ? s : "Random";
    }

    @SuppressWarnings("unchecked")
    private static Object dig(Object node, String... path) {
        Object at = node;
        for (String key : path) {
            if (!(at instanceof Map<?, ?> map)) {
                return null;
            }
            at = ((Map<String, Object>) map).get(key);
        }
        return at;
    }

    /** KubeVirt's {@code sortVMsBasedOnSortPolicy}. */
    static void sort(List<VirtualMachine> vms, String policy, RandomGenerator random) {
        switch (policy) {
            case "AscendingOrder" -> vms.sort(Comparator.comparingInt(PoolDecision::index));
            case "DescendingOrder" -> vms.sort(Comparator.comparingInt(PoolDecision::index).reversed());
            case "Newest" -> vms.sort(Comparator.comparing(PoolDecision::created).reversed());
            case "Oldest" -> vms.sort(Comparator.comparing(PoolDecision::created));
            default -> Collections.shuffle(vms, random);
        }
    }

    /** The number after the last dash (0 when there is none, as KubeVirt's {@code indexFromName} errors count). */
    static int index(VirtualMachine vm) {
        String name = vm.getMetadata().getName();
        try {
            return Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static Instant created(VirtualMachine vm) {
        String at = vm.getMetadata().getCreationTimestamp();
        try {
            return at == null ? Instant.EPOCH : Instant.parse(at);
        } catch (RuntimeException e) {
            return Instant.EPOCH;
        }
    }

    /** The VM's {@code Ready} condition is True (KubeVirt's {@code filterReadyVMs}). */
    static boolean ready(VirtualMachine vm) {
        List<Condition> conditions = vm.getStatus() == null ? null : vm.getStatus().getConditions();
        return conditions != null && conditions.stream()
                .anyMatch(c -> KubeVirtConditions.READY.equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
