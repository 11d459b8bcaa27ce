package io.qawk.orchestrator.demo;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The packaged service ({@code service/target/quarkus-app/quarkus-run.jar}) as a child process that cannot outlive
 * the demo. The service runs under a small {@code sh} that watches its standard input, a pipe only this JVM writes:
 * when this JVM ends, however it ends (Ctrl-C, SIGKILL, the OOM killer), the operating system closes the pipe and
 * the {@code sh} stops the service with SIGTERM, so no orphaned service keeps the port or the database. The same
 * device as the embedded Postgres' watchdog (testkit {@code PostmasterWatchdog}). POSIX only (Linux, macOS).
 */
final class ServiceChild implements AutoCloseable {

    /** "$@" is the service's command line; the loop ends at end of file, then the service is asked to stop. */
    static final String WRAPPER = "exec 3<&0; \"$@\" 3<&- </dev/null & c=$!; "
            + "( while read -r _ <&3; do :; done; kill -TERM \"$c\" 2>/dev/null ) & w=$!; "
            + "wait \"$c\"; s=$?; kill \"$w\" 2>/dev/null; exit $s";

    static final Duration STOP_DEADLINE = Duration.ofSeconds(30);

    private final Process process;
    private final OutputStream lifeline;

    private ServiceChild(Process process) {
        this.process = process;
        this.lifeline = process.getOutputStream();
    }

    /** Starts {@code java -jar jar} with this environment over the inherited one; its output goes to this terminal. */
    static ServiceChild start(Path jar, List<String> jvmOptions, Map<String, String> env) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("There is no packaged service at " + jar + ": build it first "
                    + "(./mvnw -Pdemo does, from the root of the checkout)");
        }
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", WRAPPER, "qawk-service",
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-jar", jar.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().putAll(env);
        try {
            return new ServiceChild(pb.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the service: " + e.getMessage(), e);
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    int exitValue() {
        return process.exitValue();
    }

    /** Asks the service to stop (SIGTERM through the wrapper) and waits for it. */
    @Override
    public void close() {
        try {
            lifeline.close();
            if (!process.waitFor(STOP_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.descendants().forEach(ProcessHandle::destroyForcibly);
        }
    }
}
