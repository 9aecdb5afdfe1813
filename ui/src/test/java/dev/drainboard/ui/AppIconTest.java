package dev.drainboard.ui;

import javafx.scene.image.Image;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The window icon comes from the generated icon set, at every size the window manager may ask for. */
@ExtendWith(ApplicationExtension.class)
class AppIconTest {

    @Start
    void start(Stage stage) {
        // The toolkit must be up to decode images.
    }

    @Test
    void everySizeLoadsAsASquareImageOfThatSize() {
        List<Image> images = AppIcon.images();

        assertThat(images).hasSize(AppIcon.SIZES.length);
        for (int i = 0; i < images.size(); i++) {
            Image image = images.get(i);
            assertThat(image.isError()).as("icon %d px", AppIcon.SIZES[i]).isFalse();
            assertThat(image.getWidth()).isEqualTo(AppIcon.SIZES[i]);
            assertThat(image.getHeight()).isEqualTo(AppIcon.SIZES[i]);
        }
    }

    @Test
    void theIconIsNotTransparentInTheMiddle() {
        Image large = AppIcon.images().getLast();
        int centre = (int) large.getWidth() / 2;

        assertThat(large.getPixelReader().getColor(centre, centre).getOpacity()).isEqualTo(1.0);
    }
}
