package io.qawk.orchestrator.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

/**
 * A process frozen with SIGSTOP, as a hung server or a paused VM is in production: the kernel still accepts
 * connections on its ports and keeps its sockets open, but nothing answers. {@link #close()} sends SIGCONT, so a test
 * freezes in a try-with-resources and never leaves a frozen process behind, however it fails; a JVM shutdown hook
 * thaws whatever is still frozen as a last resort.
 * <p>
 * Java's {@link ProcessHandle} can only end a process, so the signals go through {@code kill -STOP|-CONT <pid>}.
 */
public final class ProcessFreeze implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ProcessFreeze.class);
    private static final Set<Long> FROZEN = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> FROZEN.forEach(pid -> {
            try {
                signal(pid, "-CONT");
            } catch (RuntimeException e) {
                // the JVM is exiting; nothing more to do
            }
        }), "process-freeze-thaw"));
    }

    private final ProcessHandle process;
    private final Instant since;
    private volatile Instant thawed;

    private ProcessFreeze(ProcessHandle process, Instant since) {
        this.process = process;
        this.since = since;
    }

    /** SIGSTOP to {@code process}; close the result to send SIGCONT. */
    public static ProcessFreeze freeze(ProcessHandle process) {
        if (!process.isAlive()) {
            throw new IllegalStateException("process " + process.pid() + " is not running: nothing to freeze");
        }
        FROZEN.add(process.pid());
        try {
            signal(process.pid(), "-STOP");
        } catch (RuntimeException e) {
            FROZEN.remove(process.pid());
            throw e;
        }
        Instant since = Instant.now();
        LOG.infof("process %d frozen (SIGSTOP) at %s", process.pid(), since);
        return new ProcessFreeze(process, since);
    }

    /** When the process was stopped. */
    public Instant since() {
        return since;
    }

    /** How long it has been (or was) frozen. */
    public Duration length() {
        Instant end = thawed;
        return Duration.between(since, end == null ? Instant.now() : end);
    }

    public boolean isFrozen() {
        return thawed == null;
    }

    /** SIGCONT; the process goes on where it stood. Idempotent; a process that died meanwhile is left alone. */
    @Override
    public synchronized void close() {
        if (thawed != null) {
            return;
        }
        try {
            if (process.isAlive()) {
                signal(process.pid(), "-CONT");
            }
        } finally {
            thawed = Instant.now();
            FROZEN.remove(process.pid());
        }
        LOG.infof("process %d thawed (SIGCONT) after %d ms", process.pid(), length().toMillis());
    }

    private static void signal(long pid, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(pid)).redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                throw new IllegalStateException("kill " + signal + " " + pid + " did not return within 10 s");
            }
            if (kill.exitValue() != 0) {
                throw new IllegalStateException("kill " + signal + " " + pid + " failed: "
                        + new String(kill.getInputStream().readAllBytes()).strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill " + signal + " " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending " + signal + " to " + pid, e);
        }
    }

    @Override
    public String toString() {
        return "ProcessFreeze[pid " + process.pid() + " since " + since + (thawed == null ? "" : " thawed " + thawed)
                + "]";
    }
}
