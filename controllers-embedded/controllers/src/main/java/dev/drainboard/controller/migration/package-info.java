/**
 * The migration controller: carries each VMIM through its phases ({@link
 * dev.drainboard.controller.migration.MigrationDecision}) and makes the writes it asks for; {@link
 * dev.drainboard.controller.migration.MigrationSlots} is the one count of the migration limits, for this and the evacuation controller.
 */
package dev.drainboard.controller.migration;
