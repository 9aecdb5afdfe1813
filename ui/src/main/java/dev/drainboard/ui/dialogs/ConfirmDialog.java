package dev.drainboard.ui.dialogs;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.common.DialogCard;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.Ikon;

/** "Do this?": what the action will do, and Cancel / the action's own verb. Nothing happens until confirmed. */
final class ConfirmDialog extends DialogCard {

    ConfirmDialog(String id, Ikon icon, Kind kind, String title, String message, String detail, String confirmText,
                  Runnable confirm, Runnable cancel) {
        super(id, icon, kind, title, null);
        setPrefWidth(520);
        Label text = new Label(message);
        text.setWrapText(true);
        text.getStyleClass().add("dialog-message");
        text.setId("confirmMessage");
        body().getChildren().add(text);
        if (detail != null && !detail.isEmpty()) {
            Label what = new Label(detail);
            what.setWrapText(true);
            what.setId("confirmDetail");
            what.getStyleClass().addAll("dialog-detail", Styles.TEXT_SMALL);
            VBox box = new VBox(what);
            box.getStyleClass().add("dialog-detail-box");
            body().getChildren().add(box);
        }
        Button no = new Button("Cancel");
        no.setId("confirmCancel");
        no.setOnAction(e -> cancel.run());
        Button yes = DialogCard.primary(confirmText, kind);
        yes.setId("confirmOk");
        yes.setOnAction(e -> confirm.run());
        setButtons(no, yes);
    }
}
