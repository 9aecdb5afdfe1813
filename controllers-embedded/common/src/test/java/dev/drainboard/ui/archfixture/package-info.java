/**
 * A fixture that breaks the console rules on purpose, posing as a view (see CommonArchitectureRulesTest).
 */
package dev.drainboard.ui.archfixture;
