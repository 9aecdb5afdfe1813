package dev.drainboard.ui.model;

/** A row of one of the console's tables: it names its object and says what a text filter matches against. */
public interface Row {

    ObjectRef ref();

    /** The text a filter box searches (lower-cased by the filter). */
    String searchText();
}
