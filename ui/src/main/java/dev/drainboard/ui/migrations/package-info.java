/**
 * The Migrations screen: live migrations with their transfer's progress, and a timeline of the last minutes with
 * one lane per source node.
 */
package dev.drainboard.ui.migrations;
