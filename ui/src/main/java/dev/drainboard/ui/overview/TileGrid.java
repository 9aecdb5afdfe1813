package dev.drainboard.ui.overview;

import java.util.List;

/**
 * Arrow-key moves between the overview's tiles, which flow left to right in rows: left and right step through the
 * order (wrapping to the row before or after), up and down go to the tile of the row above or below whose centre is
 * nearest, Home and End to the first and last. A pure function of the tiles' positions.
 */
final class TileGrid {

    enum Move { LEFT, RIGHT, UP, DOWN, FIRST, LAST }

    /** A tile's top-left corner and width, in the pane's coordinates. */
    record Spot(double x, double y, double width) {
        double centre() {
            return x + width / 2;
        }
    }

    private TileGrid() {
    }

    /** The index to focus after {@code move} from {@code from}; {@code from} itself when there is nowhere to go. */
    static int next(List<Spot> tiles, int from, Move move) {
        if (tiles.isEmpty()) {
            return -1;
        }
        if (from < 0 || from >= tiles.size()) {
            return 0;
        }
        return switch (move) {
            case LEFT -> Math.max(0, from - 1);
            case RIGHT -> Math.min(tiles.size() - 1, from + 1);
            case FIRST -> 0;
            case LAST -> tiles.size() - 1;
            case UP, DOWN -> vertical(tiles, from, move == Move.DOWN);
        };
    }

    private static int vertical(List<Spot> tiles, int from, boolean down) {
        Spot here = tiles.get(from);
        // The nearest row in that direction: the smallest y beyond this one (or the largest before it).
        Double row = null;
        for (Spot s : tiles) {
            boolean beyond = down ? s.y() > here.y() + 0.5 : s.y() < here.y() - 0.5;
            if (beyond && (row == null || (down ? s.y() < row : s.y() > row))) {
                row = s.y();
            }
        }
        if (row == null) {
            return from;
        }
        int best = from;
        double bestDistance = Double.MAX_VALUE;
        for (int i = 0; i < tiles.size(); i++) {
            Spot s = tiles.get(i);
            if (Math.abs(s.y() - row) <= 0.5) {
                double distance = Math.abs(s.centre() - here.centre());
                if (distance < bestDistance) {
                    bestDistance = distance;
                    best = i;
                }
            }
        }
        return best;
    }
}
