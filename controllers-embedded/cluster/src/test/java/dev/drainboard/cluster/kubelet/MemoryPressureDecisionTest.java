package dev.drainboard.cluster.kubelet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.cluster.kubelet.MemoryPressureDecision.PodUsage;
import dev.drainboard.cluster.kubelet.MemoryPressureDecision.State;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** One pass of the memory eviction manager, one row per situation; then the victim order. */
class MemoryPressureDecisionTest {

    static final Instant NOW = Instant.parse("2025-01-01T12:00:00Z");
    static final long GI = 1L << 30;
    static final long MI = 1L << 20;
    /** The node-pressure proposal's test values (docs/behaviour.md) on a 16 GiB node. */
    static final EvictionConfig PROPOSAL_VALUES = EvictionConfig.parse(Map.of(
            "sim.drainboard.dev/eviction-soft", "memory.available<3500Mi",
            "sim.drainboard.dev/eviction-soft-grace-period", "memory.available=5s",
            "sim.drainboard.dev/eviction-max-pod-grace-period", "300",
            "sim.drainboard.dev/eviction-hard", "memory.available<10Mi"));
    static final long CAPACITY = 16 * GI;

    static PodUsage vm(String name, long guestGi, long graceSeconds) {
        long used = guestGi * GI + 256 * MI;
        return new PodUsage("ns", name, "uid-" + name, used, used, 0, graceSeconds, "compute");
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = ';', value = {
            // description; available MiB; soft first seen (s ago, - none); last met (s ago, - never); victim still running; expected: pressure | evict grace (- none) | soft since | victim
            "plenty free: nothing; 8000; -; -; false; false | - | - | -",
            "soft just met: pressure, no eviction yet; 3000; -; -; false; true | - | 0 | -",
            "soft met for 4 s: still waiting; 3000; 4; 0; false; true | - | 4 | -",
            "soft met for 5 s: evict, grace min(300, pod 60); 3000; 5; 0; false; true | 60 | 5 | uid-big",
            "soft met, last victim still terminating: one at a time; 3000; 30; 0; true; true | - | 30 | uid-before",
            "hard met: evict at once with 1 s; 5; -; -; false; true | 1 | 0 | uid-big",
            "recovered 1 min ago: pressure stays (5 m transition); 8000; -; 60; false; true | - | - | -",
            "recovered 5 min ago: pressure gone; 8000; -; 300; false; false | - | - | -",
            "back above soft: the soft clock resets; 4000; 30; 0; false; true | - | - | -",
    })
    void decides(String description, long availableMi, String softSeen, String lastMet, boolean victimRunning, String expected) {
        State state = new State(softSeen.equals("-") ? null : NOW.minusSeconds(Long.parseLong(softSeen)),
                lastMet.equals("-") ? null : NOW.minusSeconds(Long.parseLong(lastMet)), victimRunning ? "uid-before" : null);
        List<PodUsage> pods = List.of(vm("small", 2, 60), vm("big", 8, 60));
        long usage = CAPACITY - availableMi * MI;

        var plan = MemoryPressureDecision.decide(PROPOSAL_VALUES, CAPACITY, usage, pods, state, !victimRunning, NOW);

        String summary = plan.memoryPressure() + " | " + (plan.evict() == null ? "-" : plan.evict().gracePeriodSeconds())
                + " | " + (plan.next().softFirstObserved() == null ? "-" : java.time.Duration.between(plan.next().softFirstObserved(), NOW).toSeconds())
                + " | " + (plan.next().victimUid() == null ? "-" : plan.next().victimUid());
        assertThat(summary).isEqualTo(expected);
    }

    @Test
    void theSoftGraceIsCappedByTheMaxPodGracePeriod() {
        EvictionConfig thirty = EvictionConfig.parse(Map.of(
                "sim.drainboard.dev/eviction-soft", "memory.available<3500Mi",
                "sim.drainboard.dev/eviction-soft-grace-period", "memory.available=0s",
                "sim.drainboard.dev/eviction-max-pod-grace-period", "30"));
        var plan = MemoryPressureDecision.decide(thirty, CAPACITY, CAPACITY - GI, List.of(vm("vm", 4, 330)), State.INITIAL, true, NOW);
        assertThat(plan.evict().gracePeriodSeconds()).isEqualTo(30);
        assertThat(plan.evict().message()).isEqualTo("The node was low on resource: memory. Threshold quantity: 3500Mi, available: 1048576Ki.");
    }

    @Test
    void aPodUsingMoreThanItsRequestIsNamedInTheMessage() {
        PodUsage greedy = new PodUsage("ns", "greedy", "u", 3 * GI, GI, 0, 30, "app");
        assertThat(MemoryPressureDecision.message(PROPOSAL_VALUES.soft(), 2 * GI, greedy)).isEqualTo(
                "The node was low on resource: memory. Threshold quantity: 3500Mi, available: 2097152Ki. "
                        + "Container app was using 3145728Ki, request is 1Gi, has larger consumption of memory.");
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = ';', value = {
            // description; pods as name:usageMi:requestMi:priority; expected order
            "over its request goes first, whatever its size; a:4096:4096:0 b:600:512:0; b a",
            "then lower priority first; a:1024:1024:100 b:1024:1024:0 c:1024:1024:50; b c a",
            "then more usage above the request first; a:1100:1024:0 b:1500:1024:0 c:900:1024:0; b a c",
            "priority beats usage among pods over their requests; a:4000:1024:10 b:1100:1024:0; b a",
            "critical pods are never evicted; a:9000:100:2000001000 b:100:100:0; b",
            "ties go by name; b:1024:1024:0 a:1024:1024:0; a b",
    })
    void ranksVictimsAsTheKubeletDoes(String description, String pods, String expected) {
        List<PodUsage> list = java.util.Arrays.stream(pods.split(" ")).map(p -> {
            String[] f = p.split(":");
            return new PodUsage("ns", f[0], f[0], Long.parseLong(f[1]) * MI, Long.parseLong(f[2]) * MI, Integer.parseInt(f[3]), 30, "c");
        }).toList();
        assertThat(String.join(" ", MemoryPressureDecision.rank(list).stream().map(PodUsage::name).toList())).isEqualTo(expected);
    }
}
