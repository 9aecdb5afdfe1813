package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.stream.Collectors;

/** The CONTAINERS and IMAGES wide cells of workload printers: each pod-template container, comma separated. */
record ContainerCells(String names, String images) {

    static ContainerCells of(JsonNode podSpec) {
        var containers = Fields.list(podSpec, "containers");
        return new ContainerCells(
                containers.stream().map(c -> Fields.text(c, "name")).collect(Collectors.joining(",")),
                containers.stream().map(c -> Fields.text(c, "image")).collect(Collectors.joining(",")));
    }
}
