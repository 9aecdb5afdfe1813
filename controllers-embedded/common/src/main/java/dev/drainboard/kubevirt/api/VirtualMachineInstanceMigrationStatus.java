package dev.drainboard.kubevirt.api;

import java.util.List;

/** {@code vmim.status} (a status subresource). */
public class VirtualMachineInstanceMigrationStatus extends ExtensibleObject {

    private String phase;
    private List<PhaseTransitionTimestamp> phaseTransitionTimestamps;
    private MigrationState migrationState;
    private List<Condition> conditions;

    public String getPhase() { return phase; }
    public void setPhase(String phase) { this.phase = phase; }
    public List<PhaseTransitionTimestamp> getPhaseTransitionTimestamps() { return phaseTransitionTimestamps; }
    public void setPhaseTransitionTimestamps(List<PhaseTransitionTimestamp> phaseTransitionTimestamps) { this.phaseTransitionTimestamps = phaseTransitionTimestamps; }
    public MigrationState getMigrationState() { return migrationState; }
    public void setMigrationState(MigrationState migrationState) { this.migrationState = migrationState; }
    public List<Condition> getConditions() { return conditions; }
    public void setConditions(List<Condition> conditions) { this.conditions = conditions; }
}
