package dev.drainboard.ui.start;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.common.Icons;
import dev.drainboard.ui.start.StartScreenModel.Choice;
import dev.drainboard.ui.start.StartScreenModel.Failure;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.material2.Material2AL;
import org.kordamp.ikonli.material2.Material2MZ;

/** A failed connection: what went wrong, the cause and what to do, and a button for each way forward. */
final class ErrorBox extends VBox {

    private final Label headline = new Label();
    private final Label detail = new Label();
    private final HBox buttons = new HBox(8);
    private final StartScreenModel model;

    ErrorBox(StartScreenModel model) {
        super(8);
        this.model = model;
        headline.setId("errorHeadline");
        headline.getStyleClass().add("error-headline");
        headline.setWrapText(true);
        headline.setGraphic(Icons.icon(Material2AL.ERROR_OUTLINE, 20));
        detail.setId("errorDetail");
        detail.setWrapText(true);
        // Never squeezed to one truncated line when the window is short: the page scrolls instead.
        headline.setMinHeight(Region.USE_PREF_SIZE);
        detail.setMinHeight(Region.USE_PREF_SIZE);
        detail.getStyleClass().add("error-detail");
        setId("errorBox");
        getStyleClass().add("error-box");
        getChildren().addAll(headline, detail, buttons);
        Cards.showWhen(this, model.phase().isEqualTo(StartScreenModel.Phase.FAILED));
        model.failure().addListener((obs, old, failure) -> show(failure));
    }

    private void show(Failure failure) {
        if (failure == null) {
            return; // hidden with the box; the texts stay until the next failure
        }
        headline.setText(failure.error().headline());
        detail.setText(failure.error().detail());
        buttons.getChildren().setAll(failure.choices().stream().map(this::button).toList());
    }

    private Button button(Choice choice) {
        Button b = switch (choice) {
            case INSTALL_CRDS -> new Button("Install KubeVirt CRDs and connect", Icons.icon(Material2AL.BUILD));
            case CONNECT_WITHOUT_KUBEVIRT -> new Button("Connect without KubeVirt");
            case RETRY -> new Button("Try again", Icons.icon(Material2MZ.REFRESH));
            case DISMISS -> new Button("Dismiss");
        };
        switch (choice) {
            case INSTALL_CRDS -> {
                b.setId("installCrds");
                b.getStyleClass().add(Styles.ACCENT);
            }
            case CONNECT_WITHOUT_KUBEVIRT -> b.setId("connectWithoutKubeVirt");
            case RETRY -> b.setId("retryConnect");
            case DISMISS -> b.getStyleClass().add(Styles.FLAT);
        }
        b.setOnAction(e -> model.choose(choice));
        return b;
    }
}
