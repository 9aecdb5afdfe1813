/**
 * The evacuation controller: per node, creates the VMIMs that move marked VMIs (or, under the drain taint, all
 * of them) away, as many as the migration limits allow. The decision is {@link
 * dev.drainboard.controller.evacuation.EvacuationDecision}; {@link dev.drainboard.controller.evacuation.EvacuationController} is the loop.
 */
package dev.drainboard.controller.evacuation;
