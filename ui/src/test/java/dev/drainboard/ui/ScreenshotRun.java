package dev.drainboard.ui;

import javafx.geometry.BoundingBox;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;
import javafx.scene.text.Text;
import org.awaitility.core.ConditionTimeoutException;
import org.testfx.util.WaitForAsyncUtils;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import static dev.drainboard.ui.ConsoleUiTest.fx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The PNGs one screenshot test writes, each checked for what it must show.
 *
 * <p>Where: {@code -Ddrainboard.screenshots=DIR}, else {@code target/screenshots} (the folder is shared by every
 * screenshot test, and {@code docs/screenshots} is passed as DIR to retake the committed pictures). A run owns
 * exactly the files it declares: it deletes them when it starts, so a file left by an earlier run never counts, and
 * leaves every other file in the folder alone (so retaking one test's pictures into {@code docs/screenshots} does not
 * delete the others').
 *
 * <p>What each picture must be, checked on the PNG read back from disk and on the scene graph as it was rendered:
 * <ul>
 *   <li>as large as the scene (and at least the console's minimum window size);</li>
 *   <li>not blank: many distinct colours, no single colour covering nearly all of it;</li>
 *   <li>of its theme: a {@code -dark} picture dark, a {@code -light} one light;</li>
 *   <li>showing its key texts: each is part of a {@link Text} node (what labels, cells and fields draw, after
 *       ellipsis) that is visible, not transparent and at least partly inside the scene and its parents' clips,
 *       read right after the snapshot on the FX thread, so it is what the picture shows.</li>
 * </ul>
 */
final class ScreenshotRun {

    /** A real screen has thousands of colours (anti-aliased text, badges, bars); a blank or near-blank one a few. */
    static final int MIN_COLOURS = 256;
    /** A real screen's most common colour (its background) covers at most ~70% of it; an empty one all of it. */
    static final double MAX_DOMINANT_SHARE = 0.9;
    /** The console's minimum window size ({@link Console#show}). */
    static final int MIN_WIDTH = 1024;
    static final int MIN_HEIGHT = 640;
    /** How long a screen gets to show its key texts before the picture is taken anyway (and fails). */
    static final Duration SHOWN_WITHIN = Duration.ofSeconds(60);

    private final Path dir;
    private final Set<String> names;
    private final Duration shownWithin;
    private final Set<String> taken = new LinkedHashSet<>();

    private ScreenshotRun(Path dir, Set<String> names, Duration shownWithin) {
        this.dir = dir;
        this.names = names;
        this.shownWithin = shownWithin;
    }

    /** The folder screenshots go to: {@code -Ddrainboard.screenshots=DIR}, else {@code target/screenshots}. */
    static Path folder() {
        return Path.of(System.getProperty("drainboard.screenshots", "target/screenshots"));
    }

    /** A run writing {@code names} (without {@code .png}) into {@link #folder()}; deletes those files now. */
    static ScreenshotRun of(String... names) {
        return in(folder(), SHOWN_WITHIN, names);
    }

    /** A run writing {@code names} into {@code dir}, waiting up to {@code shownWithin} for key texts. */
    static ScreenshotRun in(Path dir, Duration shownWithin, String... names) {
        Set<String> declared = new LinkedHashSet<>(List.of(names));
        try {
            Files.createDirectories(dir);
            for (String name : declared) {
                Files.deleteIfExists(file(dir, name));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ScreenshotRun(dir, declared, shownWithin);
    }

    /** The console's scene as {@code name.png}, once it shows {@code mustShow}. */
    Shot take(Console console, String name, String... mustShow) {
        return take(console.scene(), name, mustShow);
    }

    /**
     * Waits (up to the run's limit) until every text of {@code mustShow} is on screen, then snapshots the scene and
     * reads its visible texts in the same FX turn, writes the PNG, reads it back and checks it. The PNG is written
     * even when the check fails, to see what went wrong.
     */
    Shot take(Scene scene, String name, String... mustShow) {
        if (!names.contains(name)) {
            throw new IllegalArgumentException(name + " is not one of this run's pictures " + names
                    + ": declare it, so that a stale copy is deleted when the run starts");
        }
        List<String> expected = List.of(mustShow);
        try {
            await().atMost(shownWithin).pollInterval(Duration.ofMillis(50))
                    .until(() -> fx(() -> missing(visibleTexts(scene), expected).isEmpty()));
        } catch (ConditionTimeoutException e) {
            // Taken anyway: the check below says what is missing, at capture time.
        }
        WaitForAsyncUtils.waitForFxEvents();
        record Capture(WritableImage image, double width, double height, List<String> texts) {
        }
        Capture capture = fx(() -> {
            WritableImage image = scene.snapshot(null);
            return new Capture(image, scene.getWidth(), scene.getHeight(), visibleTexts(scene));
        });
        Path file = file(dir, name);
        BufferedImage written;
        try {
            ImageIO.write(rgb(capture.image()), "png", file.toFile());
            written = ImageIO.read(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertShows(name, written, (int) Math.round(capture.width()), (int) Math.round(capture.height()),
                capture.texts(), expected);
        taken.add(name);
        return new Shot(file, written, capture.texts());
    }

    /** Every declared picture was taken (and passed its checks) in this run, and is on disk. */
    void assertAllTaken() {
        assertThat(taken).as("pictures taken in this run").containsExactlyInAnyOrderElementsOf(names);
        for (String name : names) {
            assertThat(file(dir, name)).as("written in this run").isRegularFile();
        }
    }

    /** One checked picture: the file, the image as read back from it, the texts on screen when it was taken. */
    record Shot(Path file, BufferedImage image, List<String> texts) {
    }

    /**
     * The checks on one picture, all reported together.
     *
     * @param name   its name; a {@code -dark} or {@code -light} ending says which theme it must show
     * @param width  the scene's width when it was taken
     * @param texts  the visible texts of the scene when it was taken
     */
    static void assertShows(String name, BufferedImage image, int width, int height, List<String> texts,
                            List<String> mustShow) {
        List<String> failures = new ArrayList<>();
        int w = image.getWidth();
        int h = image.getHeight();
        if (w != width || h != height) {
            failures.add("picture size " + w + "x" + h + " is not the scene's " + width + "x" + height);
        }
        if (w < MIN_WIDTH || h < MIN_HEIGHT) {
            failures.add("picture size " + w + "x" + h + " is below the window's minimum " + MIN_WIDTH + "x" + MIN_HEIGHT);
        }
        Colours colours = Colours.of(image);
        if (colours.distinct() < MIN_COLOURS) {
            failures.add("blank: distinct colours " + colours.distinct() + ", fewer than " + MIN_COLOURS);
        }
        if (colours.dominantShare() > MAX_DOMINANT_SHARE) {
            failures.add(String.format(Locale.ROOT, "blank: its most common colour #%06x covers %.1f%% of it, more than %.0f%%",
                    colours.dominant(), 100 * colours.dominantShare(), 100 * MAX_DOMINANT_SHARE));
        }
        theme(name).filter(dark -> dark != colours.meanLuminance() < 0.5).ifPresent(dark -> failures.add(String.format(
                Locale.ROOT, "not a %s picture: mean luminance %.2f (0 black, 1 white)", dark ? "dark" : "light",
                colours.meanLuminance())));
        List<String> absent = missing(texts, mustShow);
        if (!absent.isEmpty()) {
            failures.add("key texts not on screen when taken: " + absent.stream().map(t -> "\"" + t + "\"").toList()
                    + "; on screen were " + texts.stream().map(t -> t.length() > 80 ? t.substring(0, 80) + "…" : t).toList());
        }
        if (!failures.isEmpty()) {
            throw new AssertionError(name + ": " + String.join("\n" + name + ": ", failures));
        }
    }

    /** {@code true} for a name ending in {@code -dark}, {@code false} for {@code -light}, else empty. */
    static Optional<Boolean> theme(String name) {
        if (name.endsWith("-dark")) {
            return Optional.of(true);
        }
        return name.endsWith("-light") ? Optional.of(false) : Optional.empty();
    }

    /** The texts of {@code mustShow} that no visible text contains. */
    static List<String> missing(List<String> visible, List<String> mustShow) {
        return mustShow.stream().filter(s -> visible.stream().noneMatch(t -> t.contains(s))).toList();
    }

    /** On the FX thread: the text of every {@link Text} node a picture of the scene would show. */
    static List<String> visibleTexts(Scene scene) {
        List<String> out = new ArrayList<>();
        collect(scene.getRoot(), new BoundingBox(0, 0, scene.getWidth(), scene.getHeight()), out);
        return out;
    }

    private static void collect(Node node, Bounds area, List<String> out) {
        if (!node.isVisible() || node.getOpacity() == 0) {
            return;
        }
        Bounds inside = area;
        if (node.getClip() != null) {
            inside = intersection(inside, node.localToScene(node.getClip().getBoundsInParent()));
            if (inside == null) {
                return;
            }
        }
        if (node instanceof Text text && text.getText() != null && !text.getText().isBlank()
                && intersection(inside, text.localToScene(text.getBoundsInLocal())) != null) {
            out.add(text.getText());
        }
        if (node instanceof Parent parent) {
            for (Node child : parent.getChildrenUnmodifiable()) {
                collect(child, inside, out);
            }
        }
    }

    /** The overlap of two boxes, null when they do not overlap with some area. */
    private static Bounds intersection(Bounds a, Bounds b) {
        double minX = Math.max(a.getMinX(), b.getMinX());
        double minY = Math.max(a.getMinY(), b.getMinY());
        double maxX = Math.min(a.getMaxX(), b.getMaxX());
        double maxY = Math.min(a.getMaxY(), b.getMaxY());
        return maxX > minX && maxY > minY ? new BoundingBox(minX, minY, maxX - minX, maxY - minY) : null;
    }

    private static Path file(Path dir, String name) {
        return dir.resolve(name + ".png");
    }

    private static BufferedImage rgb(WritableImage image) {
        int w = (int) image.getWidth();
        int h = (int) image.getHeight();
        int[] argb = new int[w * h];
        image.getPixelReader().getPixels(0, 0, w, h, PixelFormat.getIntArgbInstance(), argb, 0, w);
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        out.setRGB(0, 0, w, h, argb, 0, w);
        return out;
    }

    /** Colour statistics of a picture. */
    record Colours(int distinct, int dominant, double dominantShare, double meanLuminance) {

        static Colours of(BufferedImage image) {
            int w = image.getWidth();
            int h = image.getHeight();
            if (w == 0 || h == 0) {
                return new Colours(0, 0, 1, 0);
            }
            int[] pixels = image.getRGB(0, 0, w, h, null, 0, w);
            double luminance = 0;
            for (int i = 0; i < pixels.length; i++) {
                int rgb = pixels[i] & 0xffffff;
                pixels[i] = rgb;
                luminance += (0.2126 * (rgb >> 16 & 0xff) + 0.7152 * (rgb >> 8 & 0xff) + 0.0722 * (rgb & 0xff)) / 255;
            }
            Arrays.sort(pixels);
            int distinct = 0;
            int dominant = 0;
            int dominantCount = 0;
            for (int i = 0; i < pixels.length; ) {
                int j = i;
                while (j < pixels.length && pixels[j] == pixels[i]) {
                    j++;
                }
                distinct++;
                if (j - i > dominantCount) {
                    dominantCount = j - i;
                    dominant = pixels[i];
                }
                i = j;
            }
            return new Colours(distinct, dominant, dominantCount / (double) pixels.length, luminance / pixels.length);
        }
    }
}
