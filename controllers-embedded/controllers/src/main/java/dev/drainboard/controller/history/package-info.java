/**
 * The evacuation history: while this process leads, a small loop records every node whose VMIs are marked for
 * evacuation by anyone else than Drainboard (a plain {@code kubectl drain}, another tool) as a {@code DrainRecord} of
 * kind Evacuation (docs/drain.md, "History"). {@link dev.drainboard.controller.history.EvacuationRecords} is the pure
 * part; {@link dev.drainboard.controller.history.EvacuationRecorder} the loop.
 */
package dev.drainboard.controller.history;
