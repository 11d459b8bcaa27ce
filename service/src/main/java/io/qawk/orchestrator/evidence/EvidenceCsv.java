package io.qawk.orchestrator.evidence;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * The evidence record as CSV for a spreadsheet: a header, then one row per system and device (a system without
 * devices, never started, gets one row with its device columns empty). RFC 4180 quoting; a cell that a spreadsheet
 * would take for a formula ({@code = + - @} first) gets a leading {@code '}. Pure.
 */
public final class EvidenceCsv {

    static final List<String> HEADER = List.of("deployment", "system", "group", "system_state", "controller_id",
            "component_type", "order", "before", "to", "after", "device_state", "failed", "action_ids", "assigned_at",
            "finished_at", "verification", "configuration_id", "digest");

    private EvidenceCsv() {
    }

    /** The header line. */
    public static String header() {
        StringBuilder out = new StringBuilder();
        line(out, HEADER);
        return out.toString();
    }

    /** The lines of one system of the record of deployment {@code deployment}, sealed with {@code digest}. */
    public static String rows(String deployment, JsonNode system, String digest) {
        StringBuilder out = new StringBuilder();
        List<String> head = List.of(deployment, text(system, "system"), text(system, "group"), text(system, "state"));
        String configuration = text(system.path("census"), "configurationId");
        if (system.path("devices").isEmpty()) {
            List<String> row = new ArrayList<>(head);
            for (int i = head.size(); i < HEADER.size() - 2; i++) {
                row.add("");
            }
            row.add(configuration);
            row.add(digest);
            line(out, row);
        }
        for (JsonNode device : system.path("devices")) {
            String id = text(device, "controllerId");
            List<String> actions = new ArrayList<>();
            device.path("actions").forEach(a -> actions.add(text(a, "actionId")));
            List<String> verdicts = new ArrayList<>();
            system.path("verification").forEach(v -> {
                if (id.equals(v.path("data").path("controllerId").asText())) {
                    verdicts.add(text(v, "type"));
                }
            });
            List<String> row = new ArrayList<>(head);
            row.addAll(List.of(id, text(device, "componentType"), text(device, "order"), text(device, "before"),
                    text(device, "to"), text(device, "after"), text(device, "state"), text(device, "failed"),
                    String.join(" ", actions), text(device, "assignedAt"), text(device, "finishedAt"),
                    String.join(" ", verdicts), configuration, digest));
            line(out, row);
        }
        return out.toString();
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.path(field);
        return v.isMissingNode() || v.isNull() ? "" : v.asText();
    }

    private static void line(StringBuilder out, List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(cell(cells.get(i)));
        }
        out.append("\r\n");
    }

    static String cell(String value) {
        String v = value == null ? "" : value;
        if (!v.isEmpty() && "=+-@".indexOf(v.charAt(0)) >= 0) {
            v = "'" + v;
        }
        if (v.indexOf(',') >= 0 || v.indexOf('"') >= 0 || v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0) {
            return '"' + v.replace("\"", "\"\"") + '"';
        }
        return v;
    }
}
