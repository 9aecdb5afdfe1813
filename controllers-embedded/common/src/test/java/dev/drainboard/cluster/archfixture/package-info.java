/**
 * Fixtures that break the architecture rules on purpose, posing as embedded-cluster code (see CommonArchitectureRulesTest).
 */
package dev.drainboard.cluster.archfixture;
