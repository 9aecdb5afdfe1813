package dev.drainboard.simulation;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SimulationKnobsTest {

    @Test
    void theNotMigratableMessageNamesTheKnob() {
        assertThat(SimulationKnobs.NOT_LIVE_MIGRATABLE_MESSAGE)
                .isEqualTo("VMI is marked not live-migratable by the annotation sim.drainboard.dev/live-migratable");
    }
}
