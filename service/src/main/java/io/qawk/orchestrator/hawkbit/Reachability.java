package io.qawk.orchestrator.hawkbit;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Whether hawkBit answers, for readiness: down while it fails, and also while it hangs (issue 32). A hung hawkBit
 * fails nothing for the read timeout and its retry, so "no call failed" says nothing; what counts is how long it has
 * left Qawk's requests unanswered ({@link AnswerWatch}). Past {@code qawk.hawkbit.hang-after} it is down at once,
 * without another request piling up behind the silent ones (one ping goes on in the background, so its first answer
 * brings readiness back); otherwise one ping (never two at a time) decides, waited for at most that long.
 */
final class Reachability implements AutoCloseable {

    /** The verdict and, when down, why in operators' words. */
    record Verdict(boolean up, Optional<String> why) {
        static final Verdict UP = new Verdict(true, Optional.empty());

        static Verdict down(String why) {
            return new Verdict(false, Optional.of(why));
        }
    }

    private final HawkbitClient client;
    private final Duration hangAfter;
    private final ExecutorService pinger = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "hawkbit-ping");
        t.setDaemon(true);
        return t;
    });
    private CompletableFuture<Boolean> ping;

    Reachability(HawkbitClient client, Duration hangAfter) {
        this.client = client;
        this.hangAfter = hangAfter;
    }

    /** Whether requests have gone unanswered for {@code hang-after} or longer. */
    boolean hangs() {
        return client.silentFor().filter(d -> d.compareTo(hangAfter) >= 0).isPresent();
    }

    Verdict check() {
        Optional<Duration> silent = client.silentFor().filter(d -> d.compareTo(hangAfter) >= 0);
        if (silent.isPresent()) {
            ping();
            return silentFor(silent.get());
        }
        try {
            return ping().get(hangAfter.toMillis() + 1000, TimeUnit.MILLISECONDS) ? Verdict.UP
                    : Verdict.down("hawkBit does not answer");
        } catch (TimeoutException e) {
            return silentFor(client.silentFor().orElse(hangAfter));
        } catch (ExecutionException e) {
            return Verdict.down("hawkBit does not answer");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Verdict.down("interrupted while asking hawkBit");
        }
    }

    private static Verdict silentFor(Duration d) {
        return Verdict.down("hawkBit has not answered for " + d.toSeconds() + " s");
    }

    /** The ping under way, or a new one. */
    private synchronized CompletableFuture<Boolean> ping() {
        if (ping == null || ping.isDone()) {
            ping = CompletableFuture.supplyAsync(client::ping, pinger);
        }
        return ping;
    }

    @Override
    public void close() {
        pinger.shutdownNow();
    }
}
