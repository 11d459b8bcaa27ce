package io.qawk.orchestrator;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * States move only through their enum's guard ({@code to}), and runs' and devices' states are moved only where
 * decisions are stored. Read from the main sources: every assignment to a {@code state} in code is the guard's
 * {@code state = state.to(…)}, a declaration (a field's initial state, a local variable) or a stored state read back
 * ({@code RunState.valueOf(rs.…)}); every SQL {@code set state =} writes the state an object moved to
 * ({@code v.state}) or one built through the guard ({@code %s}, see {@code RunDeviceWriter.moves}), and no SQL
 * {@code case} names the state it makes of a row itself; and a run's or
 * device's {@code moveTo}/{@code moveThrough} is called only by the store (which stores what the planner and the
 * scheduler decided) and the service (a person's command: skip, take again).
 */
class StateMovesTest {

    static final Path MAIN = Path.of("src/main/java/io/qawk/orchestrator");

    /** An assignment to a field or variable named {@code state}: what is assigned, up to the end of the statement. */
    static final Pattern ASSIGNMENT = Pattern.compile("(?<![\\w.])((?:\\w+\\.)?state)\\s*=(?!=)\\s*([^;\\n]*)");
    static final Pattern GUARD = Pattern.compile("(?:\\w+\\.)?state\\.to\\(.*");
    static final Pattern READ_BACK = Pattern.compile("[A-Z]\\w*\\.valueOf\\(rs\\.get\\w+\\(.*");
    static final Pattern DECLARATION = Pattern.compile("[A-Z][\\w.]*(?:<[^>]*>)?\\s+$");
    static final Pattern SQL_SET_STATE = Pattern.compile("(?i)\\bset\\s+state\\s*=\\s*(\\S+)");
    /** A state named in SQL as what a {@code case} makes of a row: a move decided in SQL, beside the guard. */
    static final Pattern SQL_CASE_STATE = Pattern.compile(
            "(?i)\\b(then|else)\\s*\"\\s*\\+\\s*SqlEnums\\.literal\\(\\s*\\w*State\\.\\w+");
    static final Pattern MOVE = Pattern.compile("\\.(moveTo|moveThrough)\\(");

    /** Assignments to a {@code state} that are not a move of a domain state, each with why. */
    static final Map<String, String> NOT_MOVES = Map.of(
            "deployment/plan/RunPlanner.java: state = in.run().state()", "a decision starts from the run's stored state",
            "hawkbit/HawkbitGuard.java: state = s", "the circuit breaker's own state, told by the library");

    /** Where runs and devices move: the store applies decisions, the service a person's commands. */
    static final Set<String> MOVERS = Set.of("deployment/store/RunStore.java", "deployment/DeploymentCommands.java",
            "deployment/model/SystemRun.java", "deployment/model/RunDevice.java",
            // a person's adoption of what hawkBit shows, decided by plan/Ledger, stored with the runs' locks
            "deployment/store/DivergenceStore.java");

    /** Where people's commands arrive: whether a state allows one is the state's answer ({@code allows}). */
    static final Set<String> COMMAND_DOORS = Set.of("deployment/DeploymentService.java",
            "deployment/DeploymentCommands.java", "deployment/DeploymentApprovals.java",
            "deployment/DeploymentRequests.java", "deployment/ChannelDeployments.java", "deployment/SystemMend.java",
            "deployment/api/DeploymentResource.java", "deployment/api/MendResource.java");
    /**
     * A deployment's phase or a run's state compared with one of its values, asked a command's old questions
     * ({@code beforeStart}, {@code wentBack}), or a deployment's flag read in a condition: a command check beside
     * {@code allows}.
     */
    static final Pattern COMMAND_CHECK = Pattern.compile("[!=]=\\s*(?:DeploymentPhase|RunState)\\.\\w+"
            + "|(?:DeploymentPhase|RunState)\\.\\w+\\s*[!=]="
            + "|\\.(?:beforeStart|wentBack)\\(\\)"
            + "|(?<![\\w.])\\w+\\.(?:paused|aborted)\\s*(?:[)&|?]|[!=]=)");
    /** Comparisons in the command doors that check no command, each with why. */
    static final Map<String, String> NOT_COMMAND_CHECKS = Map.of(
            "deployment/DeploymentCommands.java: == RunState.ROLLING_BACK",
            "counts the devices of a run going back, for the words of take again's refusal");

    @Test
    void commandsAreCheckedOnlyByTheStates() {
        List<String> outside = new ArrayList<>();
        for (Path file : SourceFiles.javaFiles(MAIN)) {
            String rel = MAIN.relativize(file).toString().replace('\\', '/');
            if (COMMAND_DOORS.contains(rel)) {
                outside.addAll(commandChecks(rel, PackageDependenciesTest.code(SourceFiles.read(file))));
            }
        }
        assertThat(outside).as("command checks outside the states' allows").isEmpty();
    }

    /** The scan itself, on a source made up here: a phase compared is found, the state's answer is not. */
    @Test
    void tellsACommandCheckOutsideTheStates() {
        String source = """
                class X {
                    void a() { if (d.phase != DeploymentPhase.RUNNING) { throw new ConflictException("no"); } }
                    void b() { d.check(Command.PAUSE); }
                    void c() { if (!run.state.wentBack()) { } }
                    void e() { if (d.aborted) { } d.aborted = true; }
                    void f() { if (run.allows(Command.TAKE_AGAIN)) { } }
                }
                """;
        assertThat(commandChecks("X.java", PackageDependenciesTest.code(source)))
                .containsExactly("X.java: != DeploymentPhase.RUNNING", "X.java: .wentBack()", "X.java: d.aborted)");
    }

    static List<String> commandChecks(String rel, String code) {
        List<String> found = new ArrayList<>();
        Matcher m = COMMAND_CHECK.matcher(code);
        while (m.find()) {
            String hit = rel + ": " + m.group().strip();
            if (!NOT_COMMAND_CHECKS.containsKey(hit)) {
                found.add(hit);
            }
        }
        return found;
    }

    @Test
    void everyStateAssignmentGoesThroughTheGuard() {
        List<String> outside = new ArrayList<>();
        for (Path file : SourceFiles.javaFiles(MAIN)) {
            String rel = MAIN.relativize(file).toString();
            String code = PackageDependenciesTest.code(SourceFiles.read(file));
            Matcher m = ASSIGNMENT.matcher(code);
            while (m.find()) {
                String value = value(m.group(2));
                String before = code.substring(code.lastIndexOf('\n', m.start()) + 1, m.start());
                boolean allowed = GUARD.matcher(value).matches() || READ_BACK.matcher(value).matches()
                        || DECLARATION.matcher(before).find()
                        || NOT_MOVES.containsKey(rel + ": " + m.group(1) + " = " + value);
                if (!allowed) {
                    outside.add(rel + ": " + m.group(1) + " = " + value);
                }
            }
        }
        assertThat(outside).as("state assignments outside the enums' guards").isEmpty();
    }

    @Test
    void sqlSetsOnlyStatesMovedThroughTheGuard() {
        List<String> outside = new ArrayList<>();
        for (Path file : SourceFiles.javaFiles(MAIN)) {
            Matcher m = SQL_SET_STATE.matcher(SourceFiles.read(file));
            while (m.find()) {
                String value = m.group(1).replaceAll("[,\"]+$", "");
                if (!value.equals("v.state") && !value.equals("%s")) {
                    outside.add(MAIN.relativize(file) + ": set state = " + value);
                }
            }
            Matcher c = SQL_CASE_STATE.matcher(SourceFiles.read(file));
            while (c.find()) {
                outside.add(MAIN.relativize(file) + ": " + c.group());
            }
        }
        assertThat(outside).as("SQL setting a state not moved through its enum's guard").isEmpty();
    }

    @Test
    void runsAndDevicesMoveOnlyWhereDecisionsAreStored() {
        List<String> outside = new ArrayList<>();
        for (Path file : SourceFiles.javaFiles(MAIN)) {
            String rel = MAIN.relativize(file).toString();
            Matcher m = MOVE.matcher(PackageDependenciesTest.code(SourceFiles.read(file)));
            if (m.find() && !MOVERS.contains(rel)) {
                outside.add(rel + " calls " + m.group(1));
            }
        }
        assertThat(outside).as("runs or devices moved outside the store and the service's commands").isEmpty();
    }

    /** The scan itself, on sources made up here: it tells a move outside the guard from the guard and a declaration. */
    @Test
    void tellsAMoveOutsideTheGuard() {
        String source = """
                class X {
                    public RunState state = RunState.PENDING; // initial
                    void a() { run.state = run.state.to(RunState.RUNNING); }
                    void b() { d.state = DeviceState.valueOf(rs.getString(9)); }
                    void c() { run.state = RunState.GIVEN_UP; }
                    void e() { if (x.state == RunState.PENDING) { } }
                }
                """;
        String code = PackageDependenciesTest.code(source);
        Matcher m = ASSIGNMENT.matcher(code);
        List<String> found = new ArrayList<>();
        while (m.find()) {
            String value = value(m.group(2));
            String before = code.substring(code.lastIndexOf('\n', m.start()) + 1, m.start());
            if (!GUARD.matcher(value).matches() && !READ_BACK.matcher(value).matches()
                    && !DECLARATION.matcher(before).find()) {
                found.add(m.group(1) + " = " + value);
            }
        }
        assertThat(found).containsExactly("run.state = RunState.GIVEN_UP");
        Matcher sql = SQL_SET_STATE.matcher("\"update run_device d set state = case when d.state = 'A' then 'B' end\"");
        assertThat(sql.find()).isTrue();
        assertThat(sql.group(1)).isEqualTo("case");
        assertThat(SQL_CASE_STATE.matcher("\" then \" + SqlEnums.literal(DeviceState.ASSIGNED)").find()).isTrue();
        assertThat(SQL_CASE_STATE.matcher("\" then \" + SqlEnums.literal(fromTo[i].to(fromTo[i + 1]))").find()).isFalse();
    }

    /** What is assigned, without the closing parentheses of a call it sits in ({@code s -> state = s)}). */
    static String value(String assigned) {
        String v = assigned.strip();
        while (v.endsWith(")") && v.chars().filter(c -> c == ')').count() > v.chars().filter(c -> c == '(').count()) {
            v = v.substring(0, v.length() - 1).strip();
        }
        return v;
    }
}
