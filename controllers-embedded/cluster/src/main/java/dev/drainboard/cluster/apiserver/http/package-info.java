/**
 * The API server's HTTPS front: TLS with its own CA, bearer tokens, body limits, watches as chunked HTTP or WebSocket.
 */
package dev.drainboard.cluster.apiserver.http;
