/**
 * The embedded cluster through the fabric8 client as controllers use it: informers, watch resumption,
 * evictions, access reviews, leader election, concurrent writes.
 */
package dev.drainboard.cluster.fabric8;
