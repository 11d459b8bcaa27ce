package io.qawk.orchestrator.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The tour (docs/tour.md) as steps a test runs: each {@code bash} block is a command, the {@code http} block after it
 * the answer it gives (a status line, then a JSON subset of the body). Block kinds, by their info string:
 * <ul>
 * <li>{@code bash start}: the demo's start (the test starts the demo the same way; not run as a step);</li>
 * <li>{@code bash env}: the shell variables, put before every command;</li>
 * <li>{@code bash}: a step; {@code bash skip}: a step not run (its paragraph says "Not in the demo" and why);</li>
 * <li>{@code http}: the answer of the step above; {@code http repeat}: asked again until it matches.</li>
 * </ul>
 * Any other block is a mistake, and so is a step without an answer, an answer without a step, an answer that is not a
 * status line and JSON, a failing answer (4xx, 5xx) whose paragraph does not say it fails, a repeated one whose
 * paragraph does not say "repeat until", and a skipped one whose paragraph does not say "Not in the demo".
 * {@link #problems()} lists them, with their lines.
 */
final class TourDocument {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern STATUS = Pattern.compile("^HTTP/[0-9.]+ (\\d{3})( .*)?$");
    private static final Set<String> KINDS = Set.of("bash start", "bash env", "bash", "bash skip", "http",
            "http repeat");

    /** The answer a step gives: its status and the JSON its body contains (null: the body is not checked). */
    record Answer(int status, JsonNode body, boolean repeat, String text) {
    }

    /** One command of the tour, where it is (its section and line), what the paragraph before it says, its answer. */
    record Step(int number, String section, int line, String prose, String command, boolean skip, Answer answer) {

        /** "step 12 (line 140, The rules and the census)". */
        String name() {
            return "step " + number + " (docs/tour.md line " + line + ", \"" + section + "\")";
        }
    }

    private final List<Step> steps = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private String env;
    private String start;

    private TourDocument() {
    }

    List<Step> steps() {
        return steps;
    }

    List<String> problems() {
        return problems;
    }

    /** The {@code bash env} block: the variables every command uses. */
    String env() {
        return env;
    }

    /** The {@code bash start} block: how the demo is started. */
    String start() {
        return start;
    }

    static TourDocument parse(String markdown) {
        TourDocument doc = new TourDocument();
        doc.read(markdown.split("\n", -1));
        return doc;
    }

    private void read(String[] lines) {
        String section = "";
        StringBuilder prose = new StringBuilder();
        String pendingCommand = null;
        String pendingProse = null;
        int pendingLine = 0;
        boolean pendingSkip = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.startsWith("## ")) {
                section = line.substring(3).strip();
            }
            if (!line.startsWith("```")) {
                prose.append(line).append('\n');
                continue;
            }
            String kind = line.substring(3).strip().replaceAll("\\s+", " ");
            int opened = i + 1;
            StringBuilder body = new StringBuilder();
            for (i++; i < lines.length && !lines[i].startsWith("```"); i++) {
                body.append(lines[i]).append('\n');
            }
            if (i >= lines.length) {
                problems.add("line " + opened + ": the block ```" + kind + " is never closed");
                return;
            }
            if (!KINDS.contains(kind)) {
                problems.add("line " + opened + ": unknown block ```" + kind + " (known: " + KINDS + ")");
                prose.setLength(0);
                continue;
            }
            if (pendingCommand != null && !kind.startsWith("http")) {
                problems.add("line " + pendingLine + ": a command without its answer (an ```http block after it)");
                pendingCommand = null;
            }
            switch (kind) {
                case "bash start" -> start = body.toString().strip();
                case "bash env" -> {
                    if (env != null) {
                        problems.add("line " + opened + ": a second ```bash env block");
                    }
                    if (!steps.isEmpty()) {
                        problems.add("line " + opened + ": the ```bash env block comes after the first step");
                    }
                    env = body.toString().strip();
                }
                case "bash", "bash skip" -> {
                    pendingCommand = body.toString().strip();
                    pendingProse = prose.toString();
                    pendingLine = opened;
                    pendingSkip = kind.equals("bash skip");
                    if (pendingCommand.isEmpty()) {
                        problems.add("line " + opened + ": an empty command");
                    }
                }
                default -> { // http, http repeat
                    if (pendingCommand == null) {
                        problems.add("line " + opened + ": an answer without a command before it");
                        break;
                    }
                    Answer answer = answer(opened, body.toString(), kind.equals("http repeat"));
                    if (answer != null) {
                        Step step = new Step(steps.size() + 1, section, pendingLine, pendingProse, pendingCommand,
                                pendingSkip, answer);
                        checkWords(step);
                        steps.add(step);
                    }
                    pendingCommand = null;
                }
            }
            prose.setLength(0);
        }
        if (pendingCommand != null) {
            problems.add("line " + pendingLine + ": a command without its answer (an ```http block after it)");
        }
        if (env == null) {
            problems.add("no ```bash env block: the variables the commands use");
        }
        if (start == null) {
            problems.add("no ```bash start block: how the demo is started");
        }
    }

    private Answer answer(int line, String text, boolean repeat) {
        String[] parts = text.strip().split("\n", 2);
        Matcher m = STATUS.matcher(parts[0].strip());
        if (!m.matches()) {
            problems.add("line " + line + ": an answer starts with its status line (HTTP/1.1 200 OK), not '" + parts[0]
                    + "'");
            return null;
        }
        JsonNode body = null;
        if (parts.length > 1 && !parts[1].isBlank()) {
            try {
                body = JSON.readTree(parts[1]);
            } catch (JsonProcessingException e) {
                problems.add("line " + line + ": the answer's body is not JSON: " + e.getOriginalMessage());
                return null;
            }
        }
        return new Answer(Integer.parseInt(m.group(1)), body, repeat, text.strip());
    }

    /** A failing, repeated or skipped step says so in the paragraph before it. */
    private void checkWords(Step step) {
        String prose = step.prose().toLowerCase(Locale.ROOT);
        if (step.answer().status() >= 400 && !step.skip() && !prose.contains("fail")) {
            problems.add(step.name() + " answers " + step.answer().status()
                    + ", and the paragraph before it does not say that it fails and why");
        }
        if (step.answer().repeat() && !prose.contains("repeat until")) {
            problems.add(step.name() + " is repeated, and the paragraph before it does not say \"repeat until\"");
        }
        if (step.skip() && !step.prose().contains("Not in the demo")) {
            problems.add(step.name() + " is skipped, and the paragraph before it does not say \"Not in the demo\" and why");
        }
    }

    /** What curl -si printed: the last status line before the body, and the body (null when empty). */
    record Output(int status, String body) {

        static Output of(String curlOutput) {
            String text = curlOutput.replace("\r\n", "\n");
            int status = -1;
            String rest = text;
            while (true) {
                int lineEnd = rest.indexOf('\n');
                String first = lineEnd < 0 ? rest : rest.substring(0, lineEnd);
                Matcher m = STATUS.matcher(first.strip());
                if (!m.matches()) {
                    break;
                }
                status = Integer.parseInt(m.group(1));
                int headersEnd = rest.indexOf("\n\n");
                rest = headersEnd < 0 ? "" : rest.substring(headersEnd + 2);
                if (status >= 200) {
                    break;
                }
            }
            return new Output(status, status < 0 ? text : rest);
        }

        JsonNode json() {
            if (body.isBlank()) {
                return null;
            }
            try {
                return JSON.readTree(body);
            } catch (JsonProcessingException e) {
                return null;
            }
        }
    }

    /**
     * Where {@code actual} differs from {@code expected}, read as a subset: objects have at least the fields shown
     * (a field shown as {@code null} is null or absent), lists as many entries as shown, each matching a different
     * one in any order, texts are equal, {@code …} standing for any text; empty when it matches.
     */
    static List<String> mismatches(JsonNode expected, JsonNode actual) {
        List<String> out = new ArrayList<>();
        compare("$", expected, actual, out);
        return out;
    }

    private static void compare(String path, JsonNode expected, JsonNode actual, List<String> out) {
        if (expected == null || expected.isNull()) {
            if (actual != null && !actual.isNull() && !actual.isMissingNode()) {
                out.add(path + ": expected null, got " + actual);
            }
            return;
        }
        if (actual == null || actual.isMissingNode()) {
            out.add(path + ": missing (expected " + expected + ")");
            return;
        }
        if (expected.isObject()) {
            if (!actual.isObject()) {
                out.add(path + ": expected an object, got " + actual);
                return;
            }
            expected.fields().forEachRemaining(e -> compare(path + "." + e.getKey(), e.getValue(),
                    actual.get(e.getKey()), out));
        } else if (expected.isArray()) {
            if (!actual.isArray()) {
                out.add(path + ": expected a list, got " + actual);
                return;
            }
            if (actual.size() != expected.size()) {
                out.add(path + ": expected " + expected.size() + " entries, got " + actual.size() + ": " + actual);
                return;
            }
            boolean[] used = new boolean[actual.size()];
            for (int i = 0; i < expected.size(); i++) {
                int found = -1;
                for (int j = 0; j < actual.size() && found < 0; j++) {
                    if (!used[j] && mismatches(expected.get(i), actual.get(j)).isEmpty()) {
                        found = j;
                    }
                }
                if (found < 0) {
                    String entries = actual.toString();
                    out.add(path + "[" + i + "]: no entry matches " + expected.get(i) + " (entries: "
                            + (entries.length() > 1500 ? entries.substring(0, 1500) + "…" : entries) + ")");
                } else {
                    used[found] = true;
                }
            }
        } else if (expected.isTextual()) {
            if (!actual.isTextual() || !textMatches(expected.asText(), actual.asText())) {
                out.add(path + ": expected " + expected + ", got " + actual);
            }
        } else if (expected.isNumber()) {
            if (!actual.isNumber() || expected.decimalValue().compareTo(actual.decimalValue()) != 0) {
                out.add(path + ": expected " + expected + ", got " + actual);
            }
        } else if (!expected.equals(actual)) {
            out.add(path + ": expected " + expected + ", got " + actual);
        }
    }

    /** Equal, or with {@code …} standing for any text (possibly none). */
    static boolean textMatches(String expected, String actual) {
        if (!expected.contains("…")) {
            return expected.equals(actual);
        }
        String[] parts = expected.split("…", -1);
        if (!actual.startsWith(parts[0])) {
            return false;
        }
        int at = parts[0].length();
        for (int k = 1; k < parts.length - 1; k++) {
            int found = actual.indexOf(parts[k], at);
            if (found < 0) {
                return false;
            }
            at = found + parts[k].length();
        }
        String last = parts[parts.length - 1];
        return actual.length() - last.length() >= at && actual.endsWith(last);
    }
}
