/**
 * Fixtures for the pure-decision rules: one decision that keeps them, two that break them (see CommonArchitectureRulesTest).
 */
package dev.drainboard.scheduling.archfixture;
