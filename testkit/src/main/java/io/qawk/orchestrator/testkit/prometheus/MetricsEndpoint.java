package io.qawk.orchestrator.testkit.prometheus;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A metrics endpoint the test controls: {@code GET /metrics} on a free 127.0.0.1 port answers, in Prometheus' text
 * format (0.0.4), exactly the samples the test {@linkplain #set set}, e.g. {@code lane_error_ratio{centre="c01",
 * system="lane-07"} 0.31}. Label values are escaped as the format wants ({@code \}, {@code "} and line breaks), so a
 * test can give a series a hostile system name and check that it is found by exactly that name. A {@link
 * PrometheusServer} scrapes it; {@link #scrapes()} counts the scrapes.
 */
public final class MetricsEndpoint implements AutoCloseable {

    /** One series: a metric name and its labels (sorted, so equal label sets are one series). */
    private record Series(String name, Map<String, String> labels) implements Comparable<Series> {
        @Override
        public int compareTo(Series o) {
            return line().compareTo(o.line());
        }

        String line() {
            StringBuilder sb = new StringBuilder(name);
            if (!labels.isEmpty()) {
                sb.append('{');
                String sep = "";
                for (Map.Entry<String, String> l : labels.entrySet()) {
                    sb.append(sep).append(l.getKey()).append("=\"").append(escape(l.getValue())).append('"');
                    sep = ",";
                }
                sb.append('}');
            }
            return sb.toString();
        }
    }

    private final HttpServer server;
    private final Map<Series, Double> samples = new ConcurrentSkipListMap<>();
    private final AtomicLong scrapes = new AtomicLong();

    private MetricsEndpoint(HttpServer server) {
        this.server = server;
    }

    /** Starts an endpoint with no samples on a free port of 127.0.0.1. */
    public static MetricsEndpoint start() {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a metrics endpoint on 127.0.0.1", e);
        }
        MetricsEndpoint endpoint = new MetricsEndpoint(server);
        server.createContext("/metrics", exchange -> {
            byte[] body = endpoint.exposition().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
            endpoint.scrapes.incrementAndGet();
        });
        server.setExecutor(Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "metrics-endpoint-" + server.getAddress().getPort());
            t.setDaemon(true);
            return t;
        }));
        server.start();
        return endpoint;
    }

    /** Sets (or adds) the sample of {@code name} with these labels; the next scrape serves it. */
    public MetricsEndpoint set(String name, Map<String, String> labels, double value) {
        samples.put(series(name, labels), value);
        return this;
    }

    /** Removes the series: Prometheus marks it stale at its next scrape, and an instant query no longer finds it. */
    public MetricsEndpoint remove(String name, Map<String, String> labels) {
        samples.remove(series(name, labels));
        return this;
    }

    /** {@code host:port} as a scrape target. */
    public String target() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    /** How many times {@code /metrics} has been served. */
    public long scrapes() {
        return scrapes.get();
    }

    /** What the next scrape gets. */
    public String exposition() {
        StringBuilder sb = new StringBuilder();
        samples.forEach((s, v) -> sb.append(s.line()).append(' ').append(format(v)).append('\n'));
        return sb.toString();
    }

    @Override
    public void close() {
        server.stop(0);
        ((ExecutorService) server.getExecutor()).shutdownNow();
    }

    private static Series series(String name, Map<String, String> labels) {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[a-zA-Z_:][a-zA-Z0-9_:]*")) {
            throw new IllegalArgumentException("not a Prometheus metric name: " + name);
        }
        Map<String, String> sorted = new TreeMap<>(labels);
        sorted.keySet().forEach(k -> {
            if (!k.matches("[a-zA-Z_][a-zA-Z0-9_]*")) {
                throw new IllegalArgumentException("not a Prometheus label name: " + k);
            }
        });
        return new Series(name, Collections.unmodifiableMap(sorted));
    }

    /** A label value in the text format: backslash, double quote and line feed escaped. */
    static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static String format(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        return Double.toString(v);
    }
}
