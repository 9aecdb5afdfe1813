package dev.drainboard.kubevirt;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The label, annotation and finalizer keys selectors and the descheduler match on, checked against KubeVirt's. */
class KubeVirtKeysTest {

    @Test
    void keysAreKubeVirts() {
        assertThat(KubeVirtLabels.APP + "=" + KubeVirtLabels.APP_VIRT_LAUNCHER).isEqualTo("kubevirt.io=virt-launcher");
        assertThat(KubeVirtLabels.CREATED_BY).isEqualTo("kubevirt.io/created-by");
        assertThat(KubeVirtAnnotations.DOMAIN).isEqualTo("kubevirt.io/domain");
        assertThat(KubeVirtLabels.MIGRATION_JOB_UID).isEqualTo("kubevirt.io/migrationJobUID");
        assertThat(KubeVirtAnnotations.EVACUATION_MIGRATION).isEqualTo("kubevirt.io/evacuationMigration");
        assertThat(KubeVirtAnnotations.DESCHEDULER_REQUEST_EVICT_ONLY).isEqualTo("descheduler.alpha.kubernetes.io/request-evict-only");
        assertThat(KubeVirtAnnotations.DESCHEDULER_EVICTION_IN_PROGRESS).isEqualTo("descheduler.alpha.kubernetes.io/eviction-in-progress");
        assertThat(KubeVirtFinalizers.MIGRATION_JOB).isEqualTo("kubevirt.io/migrationJobFinalize");
    }
}
