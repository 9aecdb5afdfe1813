package dev.drainboard.kubevirt;

import dev.drainboard.kubevirt.KubeVirtNames.Messages;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The texts users, the descheduler and kubectl see, checked against KubeVirt's. */
class KubeVirtNamesTest {

    @Test
    void evictionDenialsReadAsKubectlDrainPrintsThem() {
        // kubectl drain's retry line quotes the webhook's message (KubeVirt's docs/handling-eviction-requests.md)
        assertThat(Messages.WEBHOOK_DENIED.formatted(KubeVirtNames.Values.LAUNCHER_EVICTION_WEBHOOK,
                Messages.evictionTriggeredEvacuation("default", "vm-cirros")))
                .isEqualTo("admission webhook \"virt-launcher-eviction-interceptor.kubevirt.io\" denied the request: "
                        + "Eviction triggered evacuation of VMI \"default/vm-cirros\"");
        assertThat(Messages.evacuationInProgress("prod", "db-01"))
                .isEqualTo("Evacuation in progress: Eviction triggered evacuation of VMI \"prod/db-01\"");
    }

    @Test
    void admitterAndEvacuationMessagesAreKubeVirts() {
        assertThat(Messages.notLiveMigratable("db-01"))
                .isEqualTo("VMI db-01 is configured with an eviction strategy but is not live-migratable");
        assertThat(Messages.failedGettingVmi("not found")).isEqualTo("kubevirt failed getting the vmi: not found");
        assertThat(Messages.failedMarkingVmi("conflict")).isEqualTo("kubevirt failed marking the vmi for eviction: conflict");
        assertThat(Messages.VMI_NOT_MIGRATEABLE).isEqualTo("VirtualMachineInstance is not migrateable");
        assertThat(Messages.CREATED_MIGRATION.formatted("kubevirt-evacuation-x")).isEqualTo("Created Migration kubevirt-evacuation-x");
        assertThat(Messages.ERROR_CREATING_MIGRATION.formatted("boom")).isEqualTo("Error creating a Migration: boom");
    }

    @Test
    void keysAreKubeVirts() {
        assertThat(KubeVirtNames.Labels.APP + "=" + KubeVirtNames.Labels.APP_VIRT_LAUNCHER).isEqualTo("kubevirt.io=virt-launcher");
        assertThat(KubeVirtNames.Labels.CREATED_BY).isEqualTo("kubevirt.io/created-by");
        assertThat(KubeVirtNames.Annotations.DOMAIN).isEqualTo("kubevirt.io/domain");
        assertThat(KubeVirtNames.Labels.MIGRATION_JOB_UID).isEqualTo("kubevirt.io/migrationJobUID");
        assertThat(KubeVirtNames.Annotations.EVACUATION_MIGRATION).isEqualTo("kubevirt.io/evacuationMigration");
        assertThat(KubeVirtNames.Annotations.DESCHEDULER_REQUEST_EVICT_ONLY).isEqualTo("descheduler.alpha.kubernetes.io/request-evict-only");
        assertThat(KubeVirtNames.Annotations.DESCHEDULER_EVICTION_IN_PROGRESS).isEqualTo("descheduler.alpha.kubernetes.io/eviction-in-progress");
        assertThat(KubeVirtNames.Finalizers.MIGRATION_JOB).isEqualTo("kubevirt.io/migrationJobFinalize");
    }
}
