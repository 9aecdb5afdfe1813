/**
 * The cluster as the views read it: {@link dev.drainboard.ui.model.ClusterModel} turns informer caches into
 * immutable rows in FX lists, coalesced per pulse, with the pure mappings from API objects to rows and the relations
 * between them. With ui.connect and ui.actions, the only ui packages that see fabric8 objects.
 */
package dev.drainboard.ui.model;
