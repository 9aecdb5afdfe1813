package dev.drainboard.hypervisor;

/**
 * Told of every domain change (state, shutdown request, definition or undefinition as state NONE). Called on the
 * hypervisor's own threads, never under its locks: hand the news on, do not block.
 */
@FunctionalInterface
public interface DomainListener {

    void onDomainChanged(Domain domain);
}
