/**
 * The object store: objects by resource, namespace and name with resource versions, list pages and watch events.
 */
package dev.drainboard.cluster.apiserver.store;
