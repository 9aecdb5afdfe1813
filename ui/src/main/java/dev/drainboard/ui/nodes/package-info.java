/** The Nodes screen: every node with what a drain depends on, and the node actions (cordon, uncordon, drain, taint). */
package dev.drainboard.ui.nodes;
