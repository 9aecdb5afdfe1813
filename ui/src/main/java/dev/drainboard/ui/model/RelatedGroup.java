package dev.drainboard.ui.model;

import java.util.List;

/**
 * One kind of relation in the details pane's "Related" section: a label ("Launcher pod", "Protected by"), the
 * objects it leads to, and how many more there are beyond those listed.
 */
public record RelatedGroup(String relation, List<Link> links, int more) {

    /** One related object, with a short note on its state ({@code Running on node02}). */
    public record Link(ObjectRef ref, String note) {
    }

    public RelatedGroup {
        links = List.copyOf(links);
    }
}
