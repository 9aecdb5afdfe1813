/** The overview screen: headline numbers and one tile per node, with the node actions on the focused tile. */
package dev.drainboard.ui.overview;
