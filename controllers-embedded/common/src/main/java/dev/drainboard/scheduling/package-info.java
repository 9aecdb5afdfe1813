/**
 * kube-scheduler's fit as pure functions over Kubernetes objects (Jackson trees): which node a pod may go to and,
 * when none, kube-scheduler's message. The embedded cluster's scheduler ({@code dev.drainboard.cluster.scheduler})
 * binds pods with it; it depends on nothing else of Drainboard, so the drain preview can ask it too.
 */
package dev.drainboard.scheduling;
