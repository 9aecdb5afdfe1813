/**
 * Fixtures that break the architecture rules on purpose, posing as controller code (see CommonArchitectureRulesTest).
 */
package dev.drainboard.controller.archfixture;
