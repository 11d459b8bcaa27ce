package io.qawk.orchestrator.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.qawk.orchestrator.testkit.reliability.ReliabilityPostgres;

/**
 * The tour (docs/tour.md) is true: its commands, run with bash exactly as the page writes them, in order, against a
 * fresh demo started as {@code ./mvnw -Pdemo} starts it ({@link StartDev} as a process of its own, with its local
 * hawkBit, devices and demo data, on a free port and in a folder of its own), give the answers the page shows. A
 * step marked "repeat" is asked again until it does, within {@link #REPEAT_DEADLINE}; a skipped one is not run. A
 * failure names the step and shows its command, the answer expected and the answer given.
 */
class TourIT {

    static final Duration READY_DEADLINE = Duration.ofMinutes(6);
    static final Duration REPEAT_DEADLINE = Duration.ofMinutes(3);
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
    static final String READY = "Demo: ready after";
    static final String SETUP_FAILED = "Demo: setup failed";

    static Process demo;
    static Path dataDir;
    static Path log;
    static int port;
    static String adminPassword;
    static String approverPassword;
    static long readySeconds;

    @BeforeAll
    static void startTheDemo() throws IOException {
        dataDir = Files.createTempDirectory(ReliabilityPostgres.outputDir(), "tour-demo-");
        log = dataDir.resolve("demo.log");
        port = freePort();
        // not the defaults, so the page's ${QAWK_ADMIN_PASSWORD:-admin} and the like are what the commands use
        adminPassword = "tour-admin-" + random();
        approverPassword = "tour-approver-" + random();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                "-Dqawk.project.dir=" + System.getProperty("qawk.project.dir"),
                "-Dqawk.app.jar=" + System.getProperty("qawk.app.jar"),
                "-cp", System.getProperty("qawk.demo.classpath"), StartDev.class.getName())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("QAWK_"));
        env.put("QAWK_DEMO_DIR", dataDir.toString());
        env.put("QAWK_PORT", String.valueOf(port));
        env.put("QUARKUS_HTTP_HOST", "127.0.0.1");
        env.put("QAWK_ADMIN_PASSWORD", adminPassword);
        env.put("QAWK_APPROVER_PASSWORD", approverPassword);
        long t0 = System.nanoTime();
        demo = pb.start();
        await().atMost(READY_DEADLINE).pollInterval(Duration.ofMillis(500)).until(() -> {
            String text = read(log);
            assertThat(text).as("the demo's log").doesNotContain(SETUP_FAILED);
            assertThat(demo.isAlive()).as("the demo ended; its log:\n%s", tail(text)).isTrue();
            return text.contains(READY);
        });
        readySeconds = (System.nanoTime() - t0) / 1_000_000_000L;
        System.out.printf("[tour] the demo was ready after %d s (port %d, log %s)%n", readySeconds, port, log);
    }

    @AfterAll
    static void stopTheDemo() throws IOException, InterruptedException {
        if (demo != null) {
            List<ProcessHandle> children = demo.descendants().toList();
            demo.destroy(); // SIGTERM: the dev start's shutdown hook stops the service, hawkBit, the devices, Postgres
            if (!demo.waitFor(90, TimeUnit.SECONDS)) {
                demo.destroyForcibly();
            }
            children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        }
        if (dataDir != null && !Boolean.getBoolean("qawk.tour.keep")) {
            try (var paths = Files.walk(dataDir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void everyStepOfTheTourGivesTheAnswerThePageShows() throws IOException {
        // -Dqawk.tour.page=<file> runs another page of the same form (a draft of the tour, say)
        String page = System.getProperty("qawk.tour.page");
        TourDocument doc = TourDocument.parse(page == null || page.isBlank() ? TourDocumentTest.tour()
                : Files.readString(Path.of(page), StandardCharsets.UTF_8));
        assertThat(doc.problems()).as("problems in docs/tour.md").isEmpty();
        long t0 = System.nanoTime();
        List<String> skipped = new ArrayList<>();
        for (TourDocument.Step step : doc.steps()) {
            if (step.skip()) {
                skipped.add(step.name());
                System.out.printf("[tour] %s skipped: not in the demo%n", step.name());
                continue;
            }
            long s0 = System.nanoTime();
            run(doc.env(), step);
            System.out.printf("[tour] %s passed in %d ms: %s%n", step.name(), (System.nanoTime() - s0) / 1_000_000,
                    step.command().lines().findFirst().orElse(""));
        }
        System.out.printf("[tour] %d steps in %d s (%d skipped), after a demo start of %d s%n", doc.steps().size(),
                (System.nanoTime() - t0) / 1_000_000_000L, skipped.size(), readySeconds);
    }

    /** Runs the step (again, until its answer matches, when it repeats); fails naming it, with both answers. */
    private static void run(String env, TourDocument.Step step) {
        AtomicReference<String> last = new AtomicReference<>("");
        AtomicReference<List<String>> lastMismatches = new AtomicReference<>(List.of());
        if (!step.answer().repeat()) {
            String output = bash(env, step.command());
            List<String> mismatches = compare(step, output);
            if (!mismatches.isEmpty()) {
                throw new AssertionError(failure(step, output, mismatches, ""));
            }
            return;
        }
        try {
            await().atMost(REPEAT_DEADLINE).pollInterval(Duration.ofSeconds(1)).until(() -> {
                String output = bash(env, step.command());
                last.set(output);
                List<String> mismatches = compare(step, output);
                lastMismatches.set(mismatches);
                return mismatches.isEmpty();
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(failure(step, last.get(), lastMismatches.get(),
                    " (repeated for " + REPEAT_DEADLINE.toSeconds() + " s)"));
        }
    }

    private static List<String> compare(TourDocument.Step step, String output) {
        TourDocument.Output out = TourDocument.Output.of(output);
        List<String> mismatches = new ArrayList<>();
        if (out.status() != step.answer().status()) {
            mismatches.add("status: expected " + step.answer().status() + ", got " + out.status());
        }
        if (step.answer().body() != null) {
            if (out.json() == null) {
                mismatches.add("body: expected JSON, got '" + out.body() + "'");
            } else {
                mismatches.addAll(TourDocument.mismatches(step.answer().body(), out.json()));
            }
        }
        return mismatches;
    }

    private static String failure(TourDocument.Step step, String output, List<String> mismatches, String repeated) {
        String actual = output.length() > 6000 ? output.substring(0, 6000) + "… (" + output.length() + " chars)" : output;
        return step.name() + " does not give the answer the page shows" + repeated + ":\n"
                + String.join("\n", mismatches.stream().map(m -> "  - " + m).toList())
                + "\n--- the command ---\n" + step.command()
                + "\n--- the answer on the page ---\n" + step.answer().text()
                + "\n--- the answer given ---\n" + actual.strip() + "\n";
    }

    /** The page's variables, then the command, run by bash with the demo's settings in its environment. */
    private static String bash(String env, String command) {
        try {
            Path script = Files.createTempFile(dataDir, "step-", ".sh");
            Files.writeString(script, env + "\n" + command + "\n", StandardCharsets.UTF_8);
            ProcessBuilder pb = new ProcessBuilder("bash", script.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            Map<String, String> e = pb.environment();
            e.keySet().removeIf(k -> k.startsWith("QAWK_"));
            e.put("QAWK_PORT", String.valueOf(port));
            e.put("QAWK_ADMIN_PASSWORD", adminPassword);
            e.put("QAWK_APPROVER_PASSWORD", approverPassword);
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("the command did not end within " + COMMAND_TIMEOUT + ": " + command);
            }
            Files.delete(script);
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String tail(String text) {
        List<String> lines = text.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private static String random() {
        byte[] b = new byte[6];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
