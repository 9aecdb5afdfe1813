package dev.drainboard.ui.start;

import atlantafx.base.theme.Styles;
import dev.drainboard.ui.common.Icons;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.DirectoryChooser;
import javafx.stage.FileChooser;
import org.kordamp.ikonli.material2.Material2MZ;

import java.io.File;

/** Starts the embedded cluster from the built-in demo or a scenario file or folder. */
final class EmbeddedCard {

    private EmbeddedCard() {
    }

    static VBox of(StartScreenModel model) {
        ToggleGroup scenarioGroup = new ToggleGroup();
        RadioButton builtInDemo = new RadioButton("Built-in demo: 4 nodes, 12 VMIs (1 from a VM, 3 from a replica set), PDBs");
        RadioButton scenarioFile = new RadioButton("Scenario from a YAML file or folder");
        builtInDemo.setToggleGroup(scenarioGroup);
        builtInDemo.setUserData(StartScreenModel.Scenario.DEMO);
        scenarioFile.setToggleGroup(scenarioGroup);
        scenarioFile.setUserData(StartScreenModel.Scenario.FILE);
        builtInDemo.setId("scenarioDemo");
        builtInDemo.setWrapText(true);
        builtInDemo.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        Cards.syncToggles(scenarioGroup, model.scenario());
        Label scenarioPath = new Label();
        scenarioPath.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        scenarioPath.setWrapText(true);
        scenarioPath.textProperty().bind(model.scenarioPath());
        Button chooseFile = new Button("File…");
        chooseFile.setOnAction(e -> choose(model, chooseFile, false));
        Button chooseFolder = new Button("Folder…");
        chooseFolder.setOnAction(e -> choose(model, chooseFolder, true));
        chooseFile.getStyleClass().add(Styles.SMALL);
        chooseFolder.getStyleClass().add(Styles.SMALL);
        HBox scenarioChoosers = new HBox(6, chooseFile, chooseFolder);
        scenarioChoosers.setPadding(new Insets(0, 0, 0, 26));
        Button startEmbedded = new Button("Start embedded cluster", Icons.icon(Material2MZ.PLAY_ARROW));
        startEmbedded.setId("connectEmbedded");
        startEmbedded.getStyleClass().add(Styles.SUCCESS);
        startEmbedded.setMaxWidth(Double.MAX_VALUE);
        startEmbedded.disableProperty().bind(model.embeddedDisabled());
        startEmbedded.setOnAction(e -> model.startEmbedded());
        return Cards.card("Embedded cluster",
                "An in-process Kubernetes API server with simulated nodes: rehearse a maintenance window without a cluster.",
                builtInDemo, scenarioFile, scenarioChoosers, scenarioPath, startEmbedded);
    }

    private static void choose(StartScreenModel model, Button owner, boolean folder) {
        File chosen;
        if (folder) {
            DirectoryChooser chooser = new DirectoryChooser();
            chooser.setTitle("Scenario folder");
            chosen = chooser.showDialog(owner.getScene().getWindow());
        } else {
            FileChooser chooser = new FileChooser();
            chooser.setTitle("Scenario YAML");
            chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("YAML", "*.yaml", "*.yml"));
            chosen = chooser.showOpenDialog(owner.getScene().getWindow());
        }
        if (chosen != null) {
            model.useScenarioPath(chosen.getAbsolutePath());
        }
    }
}
