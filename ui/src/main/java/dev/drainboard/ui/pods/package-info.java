/** The pods screen: the pods other than VMIs' launchers on each node, and what a drain of that node does with them. */
package dev.drainboard.ui.pods;
