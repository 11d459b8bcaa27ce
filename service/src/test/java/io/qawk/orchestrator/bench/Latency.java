package io.qawk.orchestrator.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jboss.logging.Logger;

/**
 * Latency of one GET under load: after 200 untimed requests, first one client alone (after one warm-up), then {@code clients} concurrent clients
 * (one warm-up each) until {@code total} requests are answered or the deadline passes; the answer is the table's
 * "measured" text and whether p50 ≤ 50 ms and p99 ≤ 200 ms held.
 */
final class Latency {

    private static final Logger LOG = Logger.getLogger(Latency.class);

    record Result(String measured, boolean met) {
    }

    private Latency() {
    }

    static Result measure(URI uri, String user, String password, int clients, int total, Duration deadline) {
        String auth = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(uri).header("Authorization", auth)
                .timeout(Duration.ofSeconds(60)).GET().build();
        // a service that has been up for a while has compiled this path: 200 untimed requests first
        for (int i = 0; i < Math.min(200, total); i++) {
            try {
                client.send(request, HttpResponse.BodyHandlers.discarding());
            } catch (Exception e) {
                LOG.warnf("warm-up request failed: %s", e.toString());
            }
        }
        List<Long> single = new ArrayList<>();
        long singleEnd = System.nanoTime() + Math.min(deadline.toNanos() / 4, 20_000_000_000L);
        for (int i = 0; i < Math.min(21, total) && System.nanoTime() < singleEnd; i++) {
            long s = System.nanoTime();
            try {
                client.send(request, HttpResponse.BodyHandlers.discarding());
            } catch (Exception e) {
                LOG.warnf("single-client request failed: %s", e.toString());
            }
            single.add(System.nanoTime() - s);
        }
        Collections.sort(single);
        String baseline = single.size() < 2 ? "" : String.format(Locale.ROOT, "; one client alone: p50 %.0f ms, max %.0f ms"
                + " (%d requests after %d warm-up)", percentile(single.subList(1, single.size()), 0.5) / 1e6,
                single.get(single.size() - 1) / 1e6, single.size() - 1, 1);
        long end = System.nanoTime() + deadline.toNanos();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        long t0 = System.nanoTime();
        try {
            List<Future<?>> warm = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                warm.add(pool.submit(() -> client.send(request, HttpResponse.BodyHandlers.discarding())));
            }
            for (Future<?> f : warm) {
                f.get(deadline.toSeconds(), TimeUnit.SECONDS);
            }
            t0 = System.nanoTime();
            List<Future<?>> work = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                work.add(pool.submit(() -> {
                    while (next.getAndIncrement() < total && System.nanoTime() < end) {
                        long s = System.nanoTime();
                        try {
                            HttpResponse<Void> r = client.send(request, HttpResponse.BodyHandlers.discarding());
                            if (r.statusCode() != 200) {
                                failures.incrementAndGet();
                            }
                        } catch (Exception e) {
                            failures.incrementAndGet();
                        }
                        latencies.add(System.nanoTime() - s);
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) {
                f.get(deadline.toSeconds() + 60, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            LOG.warnf("latency step: %s", e.toString());
        } finally {
            pool.shutdownNow();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        if (sorted.isEmpty()) {
            return new Result("no request answered within " + deadline.toSeconds() + " s", false);
        }
        double p50 = percentile(sorted, 0.50) / 1e6;
        double p99 = percentile(sorted, 0.99) / 1e6;
        boolean complete = sorted.size() >= total;
        return new Result(String.format(Locale.ROOT, "p50 %.0f ms, p99 %.0f ms (%d requests%s in %s, %.0f/s, %d not 200)",
                p50, p99, sorted.size(), complete ? "" : " of " + total + ", cut at the deadline", ScaleBenchmark.seconds(took),
                sorted.size() / Math.max(0.001, took.toNanos() / 1e9), failures.get()) + baseline,
                p50 <= 50 && p99 <= 200 && failures.get() == 0);
    }

    private static long percentile(List<Long> sorted, double p) {
        int i = (int) Math.ceil(p * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }
}
