package dev.drainboard.ops;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The previews of the nodes drained together, read once for all their drains: the first drain to prepare reads the
 * cluster and places what every node moves, the others take its answer (or its failure) instead of reading it all again.
 */
final class SharedPreviews implements Supplier<List<DrainPreview>> {

    private final Supplier<List<DrainPreview>> read;
    private List<DrainPreview> previews;
    private RuntimeException failure;

    SharedPreviews(Supplier<List<DrainPreview>> read) {
        this.read = Objects.requireNonNull(read, "read");
    }

    @Override
    public synchronized List<DrainPreview> get() {
        if (previews == null && failure == null) {
            try {
                previews = List.copyOf(read.get());
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        if (failure != null) {
            throw failure;
        }
        return previews;
    }
}
