package dev.drainboard.kubevirt;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The texts users, the descheduler and kubectl see, checked against KubeVirt's. */
class KubeVirtMessagesTest {

    @Test
    void evictionDenialsReadAsKubectlDrainPrintsThem() {
        // kubectl drain's retry line quotes the webhook's message (KubeVirt's docs/handling-eviction-requests.md)
        assertThat(KubeVirtMessages.WEBHOOK_DENIED.formatted(KubeVirtValues.LAUNCHER_EVICTION_WEBHOOK,
                KubeVirtMessages.evictionTriggeredEvacuation("default", "vm-cirros")))
                .isEqualTo("admission webhook \"virt-launcher-eviction-interceptor.kubevirt.io\" denied the request: "
                        + "Eviction triggered evacuation of VMI \"default/vm-cirros\"");
        assertThat(KubeVirtMessages.evacuationInProgress("prod", "db-01"))
                .isEqualTo("Evacuation in progress: Eviction triggered evacuation of VMI \"prod/db-01\"");
    }

    @Test
    void admitterAndEvacuationMessagesAreKubeVirts() {
        assertThat(KubeVirtMessages.notLiveMigratable("db-01"))
                .isEqualTo("VMI db-01 is configured with an eviction strategy but is not live-migratable");
        assertThat(KubeVirtMessages.failedGettingVmi("not found")).isEqualTo("kubevirt failed getting the vmi: not found");
        assertThat(KubeVirtMessages.failedMarkingVmi("conflict")).isEqualTo("kubevirt failed marking the vmi for eviction: conflict");
        assertThat(KubeVirtMessages.VMI_NOT_MIGRATEABLE).isEqualTo("VirtualMachineInstance is not migrateable");
        assertThat(KubeVirtMessages.CREATED_MIGRATION.formatted("kubevirt-evacuation-x")).isEqualTo("Created Migration kubevirt-evacuation-x");
        assertThat(KubeVirtMessages.ERROR_CREATING_MIGRATION.formatted("boom")).isEqualTo("Error creating a Migration: boom");
    }
}
