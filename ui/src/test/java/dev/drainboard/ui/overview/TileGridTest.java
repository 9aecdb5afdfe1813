package dev.drainboard.ui.overview;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TileGridTest {

    /**
     * Seven tiles 300 wide, 16 apart, three to a row:
     * <pre>
     *   0 1 2
     *   3 4 5
     *   6
     * </pre>
     */
    private static final List<TileGrid.Spot> GRID = List.of(
            new TileGrid.Spot(0, 0, 300), new TileGrid.Spot(316, 0, 300), new TileGrid.Spot(632, 0, 300),
            new TileGrid.Spot(0, 320, 300), new TileGrid.Spot(316, 320, 300), new TileGrid.Spot(632, 320, 300),
            new TileGrid.Spot(0, 640, 300));

    @ParameterizedTest(name = "[{index}] {1} from {0} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            0 | RIGHT | 1
            2 | RIGHT | 3
            6 | RIGHT | 6
            0 | LEFT  | 0
            3 | LEFT  | 2
            1 | DOWN  | 4
            4 | DOWN  | 6
            6 | DOWN  | 6
            5 | UP    | 2
            0 | UP    | 0
            6 | UP    | 3
            4 | FIRST | 0
            1 | LAST  | 6
            -1 | DOWN | 0
            """)
    void movesAsTheTilesAreLaidOut(int from, TileGrid.Move move, int to) {
        assertThat(TileGrid.next(GRID, from, move)).isEqualTo(to);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource({"UP", "DOWN", "LEFT", "RIGHT"})
    void aSingleTileStaysFocused(TileGrid.Move move) {
        assertThat(TileGrid.next(List.of(new TileGrid.Spot(0, 0, 300)), 0, move)).isZero();
        assertThat(TileGrid.next(List.of(), 0, move)).isEqualTo(-1);
    }
}
