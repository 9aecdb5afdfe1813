/**
 * The OpenAPI v3 documents kubectl reads (explain, validation, patch types); v2 is deliberately not served.
 */
package dev.drainboard.cluster.apiserver.openapi;
