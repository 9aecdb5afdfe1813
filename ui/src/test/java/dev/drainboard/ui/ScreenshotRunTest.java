package dev.drainboard.ui;

import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.Pane;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;
import javafx.scene.paint.CycleMethod;
import javafx.scene.paint.LinearGradient;
import javafx.scene.paint.Stop;
import javafx.scene.shape.Rectangle;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The screenshot checks refuse what a broken screen looks like: blank, wrong size, wrong theme, key text missing. */
@ExtendWith(ApplicationExtension.class)
class ScreenshotRunTest {

    private static final Duration SHORT = Duration.ofMillis(300);

    @TempDir
    Path dir;

    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        stage.setScene(new Scene(new Pane(), 1360, 860));
        stage.show();
    }

    @Test
    void aBlankPictureFails() {
        BufferedImage white = new BufferedImage(1360, 860, BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D g = white.createGraphics();
        g.setColor(java.awt.Color.WHITE);
        g.fillRect(0, 0, 1360, 860);
        g.dispose();
        assertThatThrownBy(() -> ScreenshotRun.assertShows("overview-light", white, 1360, 860, List.of("node01"), List.of("node01")))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("distinct colours")
                .hasMessageContaining("most common colour #ffffff");
    }

    @Test
    void aVariedPictureOfTheRightSizeThemeAndTextsPasses() {
        ScreenshotRun.assertShows("overview-light", noise(1360, 860, 150), 1360, 860,
                List.of("node01", "2 / 4 ready"), List.of("node01", "4 ready"));
        ScreenshotRun.assertShows("overview-dark", noise(1360, 860, 0), 1360, 860, List.of("node01"), List.of("node01"));
    }

    @Test
    void aPictureOfAnotherSizeThanTheSceneFails() {
        assertThatThrownBy(() -> ScreenshotRun.assertShows("overview-light", noise(1360, 860, 150), 1024, 640,
                List.of("node01"), List.of("node01")))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("picture size")
                .hasMessageContaining("1024x640");
    }

    @Test
    void aMissingKeyTextFailsAndIsNamed() {
        assertThatThrownBy(() -> ScreenshotRun.assertShows("drain-progress-light", noise(1360, 860, 150), 1360, 860,
                List.of("Drain node03", "Draining"), List.of("Drain node03", "Drained")))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("key texts not on screen")
                .hasMessageContaining("\"Drained\"");
    }

    @Test
    void aDarkPictureThatIsLightFailsAndTheOtherWayRound() {
        assertThatThrownBy(() -> ScreenshotRun.assertShows("nodes-dark", noise(1360, 860, 150), 1360, 860, List.of(), List.of()))
                .isInstanceOf(AssertionError.class).hasMessageContaining("dark picture");
        assertThatThrownBy(() -> ScreenshotRun.assertShows("nodes-light", noise(1360, 860, 0), 1360, 860, List.of(), List.of()))
                .isInstanceOf(AssertionError.class).hasMessageContaining("light picture");
    }

    @Test
    void aBlankSceneIsRefusedAndNotCountedAsTaken() {
        ScreenshotRun run = ScreenshotRun.in(dir, SHORT, "blank-light");
        Scene scene = fx(stage::getScene);
        assertThatThrownBy(() -> run.take(scene, "blank-light", "Drained"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("distinct colours")
                .hasMessageContaining("\"Drained\"");
        assertThatThrownBy(run::assertAllTaken).isInstanceOf(AssertionError.class);
    }

    @Test
    void aSceneShowingItsTextsIsWrittenAsLargeAsTheScene() throws IOException {
        Label name = new Label("node03");
        Label state = new Label("Drained");
        fx(() -> {
            stage.getScene().setRoot(new StackPane(rainbow(), new VBox(8, name, state)));
            return null;
        });
        ScreenshotRun run = ScreenshotRun.in(dir, SHORT, "drained");
        ScreenshotRun.Shot shot = run.take(fx(stage::getScene), "drained", "node03", "Drained");
        run.assertAllTaken();
        BufferedImage file = ImageIO.read(shot.file().toFile());
        assertThat(file.getWidth()).isEqualTo(1360);
        assertThat(file.getHeight()).isEqualTo(860);
        assertThat(shot.texts()).contains("node03", "Drained");
    }

    @Test
    void hiddenTransparentClippedAndCutTextsAreNotOnScreen() {
        Label shown = new Label("shown");
        Label hidden = new Label("hidden");
        hidden.setVisible(false);
        Label transparent = new Label("transparent");
        transparent.setOpacity(0);
        Label outside = new Label("outside");
        outside.relocate(2000, 10);
        Label clipped = new Label("clipped away");
        Pane clipping = new Pane(clipped);
        clipped.relocate(0, 200);
        clipping.setClip(new Rectangle(0, 0, 300, 100));
        clipping.relocate(0, 100);
        Label cut = new Label("replicaset-controller");
        cut.setMaxWidth(60);
        cut.setPrefWidth(60);
        cut.relocate(0, 40);
        Pane root = new Pane(shown, hidden, transparent, outside, clipping, cut);
        List<String> texts = fx(() -> {
            stage.getScene().setRoot(root);
            stage.getScene().snapshot(null); // CSS and layout, as a picture has them
            return ScreenshotRun.visibleTexts(stage.getScene());
        });
        assertThat(texts).contains("shown").doesNotContain("hidden", "transparent", "outside", "clipped away");
        assertThat(ScreenshotRun.missing(texts, List.of("shown", "replicaset-controller", "repl")))
                .containsExactly("replicaset-controller");
    }

    @Test
    void aRunDeletesItsOwnStaleFilesAndNoOthers() throws IOException {
        Files.writeString(dir.resolve("overview-light.png"), "stale");
        Files.writeString(dir.resolve("controllers-light.png"), "another test's");
        ScreenshotRun run = ScreenshotRun.in(dir, SHORT, "overview-light");
        assertThat(dir.resolve("overview-light.png")).doesNotExist();
        assertThat(dir.resolve("controllers-light.png")).exists();
        assertThatThrownBy(run::assertAllTaken).isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> run.take(fx(stage::getScene), "controllers-light"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Random colours out of 4096, each channel from {@code base} up to {@code base + 105}: light for 150, dark for 0. */
    private static BufferedImage noise(int width, int height, int base) {
        Random random = new Random(7);
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                image.setRGB(x, y, channel(random, base) << 16 | channel(random, base) << 8 | channel(random, base));
            }
        }
        return image;
    }

    private static int channel(Random random, int base) {
        return base + random.nextInt(16) * 7;
    }

    private static Rectangle rainbow() {
        Rectangle r = new Rectangle(1360, 860);
        r.setFill(new LinearGradient(0, 0, 1, 1, true, CycleMethod.NO_CYCLE,
                new Stop(0, Color.RED), new Stop(0.33, Color.LIME), new Stop(0.66, Color.BLUE), new Stop(1, Color.WHITE)));
        return r;
    }
}
