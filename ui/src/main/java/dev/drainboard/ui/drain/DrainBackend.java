package dev.drainboard.ui.drain;

import dev.drainboard.ops.DrainListener;
import dev.drainboard.ops.DrainOperation;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainPreview;
import dev.drainboard.ops.DrainWaits;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ui.actions.ClusterActions;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What the drain workflow asks of the cluster: {@link ClusterActions} in the console, a hand-driven fake in tests.
 * Futures may complete on any thread; {@link DrainDialogModel} posts their results to its UI executor.
 */
public interface DrainBackend {

    /** What draining each node would do, in the order given; completes exceptionally with ops' message. */
    CompletableFuture<List<DrainPreview>> preview(List<String> nodes, DrainOptions options);

    /** Starts draining the nodes as one operation; the listener hears every change on the drains' own threads. */
    CompletableFuture<Run> drain(List<String> nodes, DrainOptions options, DrainListener listener);

    /** Why the running drain's migrations wait and how long they still take; nothing by default. */
    default CompletableFuture<DrainWaits> waits(List<DrainPreview> previews) {
        return CompletableFuture.completedFuture(DrainWaits.NONE);
    }

    /** The VMIs ({@code namespace/name}) still marked for evacuation from the nodes; none by default. */
    default CompletableFuture<List<String>> markedForEvacuation(List<String> nodes) {
        return CompletableFuture.completedFuture(List.of());
    }

    /** Clears the nodes' evacuation marks; one message per VMI; completes exceptionally with ops' refusal. */
    default CompletableFuture<List<String>> clearEvacuationMarks(List<String> nodes) {
        return CompletableFuture.completedFuture(List.of());
    }

    /** A started drain of one or several nodes. */
    interface Run {
        /** Asks every node's drain to stop (evictions already accepted stand; the nodes stay cordoned). */
        void cancel();

        /** Completes once every node's drain has ended, with their results; never exceptionally. */
        CompletableFuture<List<DrainResult>> ended();
    }

    /** The console's backend: ops through {@link ClusterActions}, blocking calls off the FX thread. */
    static DrainBackend of(ClusterActions actions) {
        return new DrainBackend() {
            @Override
            public CompletableFuture<List<DrainPreview>> preview(List<String> nodes, DrainOptions options) {
                return actions.preview(nodes, options);
            }

            @Override
            public CompletableFuture<DrainWaits> waits(List<DrainPreview> previews) {
                return actions.waits(previews);
            }

            @Override
            public CompletableFuture<List<String>> markedForEvacuation(List<String> nodes) {
                return actions.markedForEvacuation(nodes);
            }

            @Override
            public CompletableFuture<List<String>> clearEvacuationMarks(List<String> nodes) {
                return actions.clearEvacuationMarks(nodes);
            }

            @Override
            public CompletableFuture<Run> drain(List<String> nodes, DrainOptions options, DrainListener listener) {
                return actions.drain(nodes, options, listener).thenApply(operations -> new Run() {
                    @Override
                    public void cancel() {
                        operations.forEach(DrainOperation::cancel);
                    }

                    @Override
                    public CompletableFuture<List<DrainResult>> ended() {
                        return actions.whenAllEnded(operations);
                    }
                });
            }
        };
    }
}
