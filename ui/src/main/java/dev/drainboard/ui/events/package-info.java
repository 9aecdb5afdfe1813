/** The Events screen: the cluster's events, newest first, live, filtered by text and by type. */
package dev.drainboard.ui.events;
