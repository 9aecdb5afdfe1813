package dev.drainboard.ui.controllers;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The embedded cluster's KubeVirt release: applied, remembered per cluster, restored by the next session. */
class KubeVirtVersionOverrideTest {

    private final Preferences prefs = Preferences.userRoot().node("dev/drainboard/test/kubevirt-version-" + System.nanoTime());

    @AfterEach
    void clean() throws BackingStoreException {
        prefs.removeNode();
    }

    @Test
    void aChoiceIsAppliedAndRestoredForTheSameClusterOnly() {
        List<String> applied = new ArrayList<>();
        new KubeVirtVersionOverride(prefs, "embedded", applied::add).choose("v1.6.0");
        assertThat(applied).containsExactly("v1.6.0");

        List<String> next = new ArrayList<>();
        new KubeVirtVersionOverride(prefs, "embedded", next::add).restore();
        new KubeVirtVersionOverride(prefs, "other", next::add).restore();
        assertThat(next).containsExactly("v1.6.0");
    }

    @Test
    void aVersionThatNamesNoReleaseChangesNothing() {
        List<String> applied = new ArrayList<>();
        KubeVirtVersionOverride override = new KubeVirtVersionOverride(prefs, "embedded", applied::add);
        assertThatThrownBy(() -> override.choose("latest")).isInstanceOf(IllegalArgumentException.class);
        assertThat(applied).isEmpty();
        assertThat(override.remembered()).isEmpty();
    }
}
