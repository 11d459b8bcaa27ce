package io.qawk.orchestrator.yaml;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

/**
 * One parsed YAML document: its tree, and where each node stood in the text (by YAML path such as
 * {@code components[1].qawk_match}), so that semantic errors can say where as well as what.
 */
record YamlDocument(JsonNode root, Map<String, Position> positions) {

    /** A line and column, both counted from 1. */
    record Position(int line, int column) {
        @Override
        public String toString() {
            return "line " + line + ", column " + column;
        }
    }

    /** {@code " (line 3, column 5)"} for a known path, else empty. */
    String at(String path) {
        Position p = positions.get(path);
        return p == null ? "" : " (" + p + ")";
    }
}
