package io.qawk.orchestrator;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The main packages of the service ({@code io.qawk.orchestrator.X}, sub-packages counted with their top package)
 * depend on each other one way only. Read from the sources: {@code import io.qawk.orchestrator.X.…} lines (static
 * ones too) and fully-qualified uses {@code io.qawk.orchestrator.X.…} in code; comments and string literals do not
 * count. A cycle fails the test with its packages in order and, per step, a file that makes it.
 */
class PackageDependenciesTest {

    static final Path MAIN = Path.of("src/main/java/io/qawk/orchestrator");
    static final Pattern REFERENCE = Pattern.compile("\\bio\\.qawk\\.orchestrator\\.([a-z][a-z0-9_]*)\\.");

    /** For each package, the packages it uses, and for each such edge one file that makes it. */
    record Graph(Map<String, Map<String, String>> edges) {

        Set<String> uses(String from) {
            return edges.getOrDefault(from, Map.of()).keySet();
        }
    }

    @Test
    void mainPackagesFormNoCycle() {
        Graph graph = graph(MAIN);
        assertThat(graph.edges()).as("packages read from %s", MAIN).isNotEmpty();
        List<String> cycles = cycles(graph);
        assertThat(cycles).as("package cycles among io.qawk.orchestrator.*").isEmpty();
    }

    /**
     * The rooms of {@code deployment/} are layered, each using only those below it: {@code model} (entities, states,
     * the timeline's records) ← {@code plan} (pure decisions) ← {@code store} (reads and writes) ← {@code engine} (the
     * loop and what it asks of hawkBit) ← the feature's own room (the service, what channels use) ← {@code api}.
     */
    static final List<String> DEPLOYMENT_ROOMS = List.of("model", "plan", "store", "engine", "", "api");

    @Test
    void deploymentRoomsUseOnlyTheRoomsBelowThem() {
        Path deployment = MAIN.resolve("deployment");
        Pattern room = Pattern.compile("\\bio\\.qawk\\.orchestrator\\.deployment\\.(?:([a-z]\\w*)\\.)?[A-Z]");
        Set<String> upward = new TreeSet<>();
        Set<String> rooms = new TreeSet<>();
        for (Path file : SourceFiles.javaFiles(deployment)) {
            Path rel = deployment.relativize(file);
            String from = rel.getNameCount() == 1 ? "" : rel.getName(0).toString();
            rooms.add(from);
            Matcher m = room.matcher(code(SourceFiles.read(file)));
            while (m.find()) {
                String to = m.group(1) == null ? "" : m.group(1);
                if (!DEPLOYMENT_ROOMS.contains(from) || !DEPLOYMENT_ROOMS.contains(to)) {
                    upward.add(rel + ": room " + (from.isEmpty() ? "deployment" : from) + " is not one of "
                            + DEPLOYMENT_ROOMS);
                } else if (DEPLOYMENT_ROOMS.indexOf(to) > DEPLOYMENT_ROOMS.indexOf(from)) {
                    upward.add(rel + " (" + name(from) + ") uses " + name(to));
                }
            }
        }
        assertThat(rooms).as("rooms found in %s", deployment).containsExactlyInAnyOrderElementsOf(DEPLOYMENT_ROOMS);
        assertThat(upward).as("deployment rooms using a room above them").isEmpty();
    }

    /**
     * The API reads through the deployment room, the store and the planner, never the engine: the plan preview's
     * verdicts are the start rules' ({@code plan/StartRules}), the same the engine's start step keeps.
     */
    @Test
    void theApiRoomUsesNoEngineClass() {
        Path api = MAIN.resolve("deployment/api");
        Pattern engine = Pattern.compile("\\bio\\.qawk\\.orchestrator\\.deployment\\.engine\\.");
        Set<String> using = new TreeSet<>();
        for (Path file : SourceFiles.javaFiles(api)) {
            if (engine.matcher(code(SourceFiles.read(file))).find()) {
                using.add(MAIN.relativize(file).toString());
            }
        }
        assertThat(SourceFiles.javaFiles(api)).as("files in %s", api).isNotEmpty();
        assertThat(using).as("API files that use deployment.engine").isEmpty();
    }

    private static String name(String room) {
        return room.isEmpty() ? "deployment" : "deployment." + room;
    }

    /**
     * Channels reach deployments through their small public API, never their entities or engine internals: the API
     * (with {@code ReleaseHalts}, the hook the channels implement). What the release engine runs on, shared with the
     * deployment engine (the bulk observer of devices in flight, their outcome, the engines' settings), is the room
     * {@code observation}, not the deployments'.
     */
    @Test
    void channelsUseOnlyTheDeploymentsPublicApi() {
        Set<String> allowed = Set.of("ChannelDeployments", "DeploymentRequest", "DeploymentPhase", "ChannelNames",
                "ReleaseHalts");
        Map<String, Set<String>> used = new TreeMap<>();
        Pattern deploymentClass = Pattern.compile("\\bio\\.qawk\\.orchestrator\\.deployment\\.(?:[a-z]\\w*\\.)*([A-Z]\\w*)");
        for (Path file : SourceFiles.javaFiles(MAIN.resolve("channel"))) {
            Matcher m = deploymentClass.matcher(code(SourceFiles.read(file)));
            while (m.find()) {
                if (!allowed.contains(m.group(1))) {
                    used.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(MAIN.relativize(file).toString());
                }
            }
        }
        assertThat(used).as("deployment classes that channel uses beyond %s", allowed).isEmpty();
    }

    /**
     * One door: the rooms beside {@code deployment} (evidence, guard, health, metrics, channel …) reach it through its
     * top room ({@code RunRecords}, {@code DeploymentReads}, …) or its model, never into {@code engine/} or
     * {@code store/}, which are the room's own.
     */
    @Test
    void noRoomOutsideDeploymentUsesItsEngineOrStore() {
        Pattern inner = Pattern.compile("\\bio\\.qawk\\.orchestrator\\.deployment\\.(?:engine|store)\\.([A-Z]\\w*)");
        Map<String, Set<String>> using = new TreeMap<>();
        for (Path file : SourceFiles.javaFiles(MAIN)) {
            if (MAIN.relativize(file).startsWith("deployment")) {
                continue;
            }
            Matcher m = inner.matcher(code(SourceFiles.read(file)));
            while (m.find()) {
                using.computeIfAbsent(MAIN.relativize(file).toString(), k -> new TreeSet<>()).add(m.group(1));
            }
        }
        assertThat(using).as("files outside deployment/ that use deployment.engine or deployment.store").isEmpty();
    }

    /** The deployment room takes its beans by injection: no class of it looks one up in the container. */
    @Test
    void deploymentFindsNoBeanThroughTheContainer() {
        Set<String> looking = new TreeSet<>();
        for (Path file : SourceFiles.javaFiles(MAIN.resolve("deployment"))) {
            if (code(SourceFiles.read(file)).contains("Arc.container()")) {
                looking.add(MAIN.relativize(file).toString());
            }
        }
        assertThat(looking).as("deployment classes that call Arc.container()").isEmpty();
    }

    /** The cycle finder itself, on a graph made up here: it names every cycle once, in dependency order. */
    @Test
    void findsAndNamesACycle() {
        Map<String, Map<String, String>> edges = new LinkedHashMap<>();
        edges.put("a", Map.of("b", "a/A.java"));
        edges.put("b", Map.of("c", "b/B.java"));
        edges.put("c", Map.of("a", "c/C.java", "d", "c/C.java"));
        edges.put("d", Map.of());
        assertThat(cycles(new Graph(edges))).containsExactly(
                "[a, b, c] depend on each other: a -> b (a/A.java) -> c (b/B.java) -> a (c/C.java)");
        edges.put("c", Map.of("d", "c/C.java"));
        assertThat(cycles(new Graph(edges))).isEmpty();
    }

    /** Comments and strings are not dependencies; code is. */
    @Test
    void readsCodeNotCommentsOrStrings() {
        String source = """
                import io.qawk.orchestrator.hawkbit.Fiql;
                /** see {@link io.qawk.orchestrator.channel.Channel} */
                class X { // io.qawk.orchestrator.ui.Y
                    String s = "io.qawk.orchestrator.yaml.Z \\" io.qawk.orchestrator.yaml.Z";
                    char c = '"';
                    io.qawk.orchestrator.common.Problem p;
                }
                """;
        Matcher m = REFERENCE.matcher(code(source));
        List<String> found = new ArrayList<>();
        while (m.find()) {
            found.add(m.group(1));
        }
        assertThat(found).containsExactly("hawkbit", "common");
    }

    static Graph graph(Path root) {
        Map<String, Map<String, String>> edges = new TreeMap<>();
        for (Path file : SourceFiles.javaFiles(root)) {
            String from = root.relativize(file).getName(0).toString();
            if (from.endsWith(".java")) {
                continue; // a class directly in io.qawk.orchestrator
            }
            Map<String, String> out = edges.computeIfAbsent(from, k -> new TreeMap<>());
            Matcher m = REFERENCE.matcher(code(SourceFiles.read(file)));
            while (m.find()) {
                String to = m.group(1);
                if (!to.equals(from)) {
                    out.putIfAbsent(to, root.relativize(file).toString());
                }
            }
        }
        return new Graph(edges);
    }

    /**
     * Per strongly connected set of packages, one line: the set, then for each of its packages the shortest cycle
     * through it ({@code a -> b (file) -> … -> a (file)}), each cycle once.
     */
    static List<String> cycles(Graph graph) {
        List<String> out = new ArrayList<>();
        for (Set<String> component : stronglyConnected(graph)) {
            if (component.size() < 2) {
                continue;
            }
            Set<String> paths = new LinkedHashSet<>();
            Set<Set<String>> seen = new HashSet<>();
            for (String start : component) {
                List<String> path = pathBack(graph, component, start);
                if (!seen.add(new TreeSet<>(path))) {
                    continue; // the same cycle, entered elsewhere
                }
                StringBuilder s = new StringBuilder(start);
                for (int i = 1; i < path.size(); i++) {
                    s.append(" -> ").append(path.get(i)).append(" (")
                            .append(graph.edges().get(path.get(i - 1)).get(path.get(i))).append(')');
                }
                paths.add(s.toString());
            }
            out.add(component + " depend on each other: " + String.join("; ", paths));
        }
        return out;
    }

    /** The shortest path from {@code start} back to itself inside one strongly connected set (breadth first). */
    private static List<String> pathBack(Graph graph, Set<String> component, String start) {
        Map<String, String> cameFrom = new LinkedHashMap<>();
        List<String> queue = new ArrayList<>(List.of(start));
        for (int i = 0; i < queue.size(); i++) {
            String at = queue.get(i);
            for (String next : graph.uses(at)) {
                if (!component.contains(next)) {
                    continue;
                }
                if (next.equals(start)) {
                    List<String> path = new ArrayList<>(List.of(start));
                    for (String p = at; p != null; p = cameFrom.get(p)) {
                        path.add(0, p);
                    }
                    return path; // start, …, at, start: the walk back stops at start, which came from nowhere
                }
                if (!cameFrom.containsKey(next) && !next.equals(start)) {
                    cameFrom.put(next, at);
                    queue.add(next);
                }
            }
        }
        throw new IllegalStateException(start + " is in a strongly connected set but has no way back");
    }

    /** Tarjan's strongly connected components, each in name order, in name order of their first package. */
    private static List<Set<String>> stronglyConnected(Graph graph) {
        Set<String> nodes = new TreeSet<>(graph.edges().keySet());
        graph.edges().values().forEach(m -> nodes.addAll(m.keySet()));
        Map<String, Integer> index = new LinkedHashMap<>();
        Map<String, Integer> low = new LinkedHashMap<>();
        List<String> stack = new ArrayList<>();
        List<Set<String>> out = new ArrayList<>();
        for (String n : nodes) {
            if (!index.containsKey(n)) {
                connect(graph, n, index, low, stack, out);
            }
        }
        out.sort((a, b) -> a.iterator().next().compareTo(b.iterator().next()));
        return out;
    }

    private static void connect(Graph graph, String n, Map<String, Integer> index, Map<String, Integer> low,
                                List<String> stack, List<Set<String>> out) {
        index.put(n, index.size());
        low.put(n, index.get(n));
        stack.add(n);
        for (String m : graph.uses(n)) {
            if (!index.containsKey(m)) {
                connect(graph, m, index, low, stack, out);
                low.put(n, Math.min(low.get(n), low.get(m)));
            } else if (stack.contains(m)) {
                low.put(n, Math.min(low.get(n), index.get(m)));
            }
        }
        if (low.get(n).equals(index.get(n))) {
            Set<String> component = new TreeSet<>();
            String m;
            do {
                m = stack.remove(stack.size() - 1);
                component.add(m);
            } while (!m.equals(n));
            out.add(component);
        }
    }

    /** The source with comments and string/char literals blanked out (text blocks included). */
    static String code(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (c == '/' && i + 1 < n && source.charAt(i + 1) == '/') {
                while (i < n && source.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '*') {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                out.append(' ');
            } else if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                while (end > 0 && source.charAt(end - 1) == '\\') {
                    end = source.indexOf("\"\"\"", end + 1);
                }
                i = end < 0 ? n : end + 3;
                out.append("\"\"");
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && source.charAt(j) != c && source.charAt(j) != '\n') {
                    j += source.charAt(j) == '\\' ? 2 : 1;
                }
                i = j + 1;
                out.append(c).append(c);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
