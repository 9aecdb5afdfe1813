/**
 * The start screen: {@link dev.drainboard.ui.start.StartScreenModel} holds its choices (contexts, scenario, mode,
 * webhook address) and where connecting stands, without the FX toolkit; {@link dev.drainboard.ui.start.StartScreen}
 * lays it out and binds to it, with its cards and list cells in classes of their own. Connecting is the console's.
 */
package dev.drainboard.ui.start;
