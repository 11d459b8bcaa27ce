package io.qawk.orchestrator.deployment.engine;

import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * When the deployment engine passes: right after it is woken (a deployment was started or commanded), every
 * {@code busy} while devices are due back from hawkBit, every {@code idle} otherwise. A fixed tick made every start,
 * order change and end wait for the next one (docs/benchmarks.md, "Decisions the figures made"); idle passes ask
 * hawkBit nothing, so relaxing only saves the database's queries.
 * <p>
 * A wake during a pass is not lost: the pass may have read the store before the waker's commit, so another follows at
 * once. Waking only ever brings a pass forward; nothing depends on it, since each pass reads what is stored.
 */
public final class PassLoop {

    private static final Logger LOG = Logger.getLogger(PassLoop.class);

    private final BooleanSupplier pass;
    private final long busyNanos;
    private final long idleNanos;
    private final long initialDelayNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition woken = lock.newCondition();
    private long wakes;
    private boolean stopped;
    private Thread thread;
    /** When the pass under way started (System.nanoTime), 0 while none is. */
    private volatile long passStartedNanos;
    /** When the last pass ended (System.nanoTime), 0 before the first. */
    private volatile long passEndedNanos;

    /** {@code pass}: one pass, true when devices are due (so the next one comes after {@code busy}). */
    public PassLoop(BooleanSupplier pass, Duration busy, Duration idle, Duration initialDelay) {
        this.pass = pass;
        this.idleNanos = Math.max(1, idle.toNanos());
        this.busyNanos = Math.max(1, Math.min(busy.toNanos(), idleNanos));
        this.initialDelayNanos = Math.max(0, initialDelay.toNanos());
    }

    /** Starts the loop's thread; the first pass comes after the initial delay (a wake before it does nothing). */
    public synchronized void start(String name) {
        if (thread == null) {
            thread = new Thread(this::run, name);
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Brings the next pass forward to now (after the initial delay). */
    public void wake() {
        lock.lock();
        try {
            wakes++;
            woken.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Stops after the pass under way, if any, waiting up to {@code patience} for it. */
    public void stop(Duration patience) throws InterruptedException {
        Thread t;
        lock.lock();
        try {
            stopped = true;
            woken.signalAll();
            t = thread;
        } finally {
            lock.unlock();
        }
        if (t != null) {
            t.join(patience.toMillis());
        }
    }

    private void run() {
        if (!waitFor(initialDelayNanos, -1)) {
            return;
        }
        while (true) {
            long seen;
            lock.lock();
            try {
                seen = wakes;
            } finally {
                lock.unlock();
            }
            if (Thread.interrupted()) {
                // nobody but stop() may end the loop; an interrupt left over from a pass must not fail the next one
                LOG.warn("The engine loop's thread was interrupted; it goes on");
            }
            boolean busy;
            passStartedNanos = System.nanoTime();
            try {
                busy = pass.getAsBoolean();
            } catch (RuntimeException | LinkageError | AssertionError e) {
                LOG.errorf(e, "An engine pass failed; the next one comes as usual");
                busy = false;
            } finally {
                passEndedNanos = System.nanoTime();
                passStartedNanos = 0;
            }
            if (!waitFor(busy ? busyNanos : idleNanos, seen)) {
                return;
            }
        }
    }

    /**
     * Waits {@code nanos}, or until a wake newer than {@code seen} ({@code -1}: wakes do not count); false once
     * stopped. An interrupt ends the wait early, never the loop: a pass's interrupt (a fault-tolerance timeout, a
     * library's) once ended it here without a word, and deployments stopped moving while the service looked healthy.
     */
    private boolean waitFor(long nanos, long seen) {
        lock.lock();
        try {
            long left = nanos;
            while (!stopped && left > 0 && (seen < 0 || wakes == seen)) {
                try {
                    left = woken.awaitNanos(left);
                } catch (InterruptedException e) {
                    LOG.warn("The engine loop's wait was interrupted; it goes on");
                    return !stopped;
                }
            }
            return !stopped;
        } finally {
            lock.unlock();
        }
    }

    /**
     * How long the pass under way has been going, empty while none is: a pass that never ends (a call without a
     * deadline, a lock never released) holds every deployment still.
     */
    public Optional<Duration> passUnderWayFor() {
        long started = passStartedNanos;
        return started == 0 ? Optional.empty()
                : Optional.of(Duration.ofNanos(System.nanoTime() - started));
    }

    /** How long ago the last pass ended, empty before the first. */
    public Optional<Duration> lastPassEndedAgo() {
        long ended = passEndedNanos;
        return ended == 0 ? Optional.empty() : Optional.of(Duration.ofNanos(System.nanoTime() - ended));
    }

    /** Whether the loop is waiting or passing (for tests and health). */
    public boolean running() {
        lock.lock();
        try {
            return thread != null && thread.isAlive() && !stopped;
        } finally {
            lock.unlock();
        }
    }
}
