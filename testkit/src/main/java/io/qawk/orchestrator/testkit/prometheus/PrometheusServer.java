package io.qawk.orchestrator.testkit.prometheus;

import io.qawk.orchestrator.testkit.BuildInstalls;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jboss.logging.Logger;

/**
 * A real Prometheus (Debian's {@code /usr/bin/prometheus}, installed by {@code service/src/test/scripts/
 * install-prometheus.sh}) run as a child process for tests: on a free 127.0.0.1 port, with its storage, its log and
 * a generated configuration in a fresh temporary folder, scraping the given targets every second (or as set).
 * {@link #start} returns once {@code /-/ready} answers 200; {@link #close()} (or the JVM's exit) stops it and removes
 * the folder. {@link #awaitScraped} waits until every target has been scraped successfully since a moment, so a test
 * can wait for a value it set instead of sleeping.
 * <p>
 * When the binary is missing this fails (never skips) and says how to install it.
 * <p>
 * About 370 lines, like {@code HawkbitServer}: the launch, the two waits (ready, scraped) and the clean-up share the
 * child process and its folder, and each says what went wrong with Prometheus' own log.
 */
public final class PrometheusServer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(PrometheusServer.class);

    public static final Path BINARY = Path.of("/usr/bin/prometheus");
    public static final Duration DEFAULT_SCRAPE_INTERVAL = Duration.ofSeconds(1);
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final int port;
    private final Path dir;
    private final Path logFile;
    private final List<String> targets;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Thread shutdownHook;
    private volatile boolean closed;

    private PrometheusServer(Process process, int port, Path dir, List<String> targets) {
        this.process = process;
        this.port = port;
        this.dir = dir;
        this.logFile = dir.resolve("prometheus.log");
        this.targets = List.copyOf(targets);
        this.shutdownHook = new Thread(this::stopQuietly, "prometheus-shutdown-" + port);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts a Prometheus scraping these targets ({@code host:port}, path {@code /metrics}) every second. */
    public static PrometheusServer start(String... targets) {
        return builder().targets(targets).start();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** {@code http://127.0.0.1:<port>}, the base URL of its HTTP API (as {@code qawk.prometheus.url} takes it). */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path logFile() {
        return logFile;
    }

    /**
     * Waits until every target was scraped successfully after {@code since} (health {@code up}, last scrape later),
     * so that values a test set before {@code since} are in Prometheus.
     */
    public void awaitScraped(Instant since, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer";
        while (true) {
            try {
                JsonNode active = get("/api/v1/targets?state=active").path("data").path("activeTargets");
                int fresh = 0;
                StringBuilder seen = new StringBuilder();
                for (JsonNode t : active) {
                    String health = t.path("health").asText();
                    Instant scraped = parseInstant(t.path("lastScrape").asText());
                    seen.append(t.path("scrapeUrl").asText()).append(' ').append(health).append(' ').append(scraped)
                            .append("; ");
                    if ("up".equals(health) && scraped != null && scraped.isAfter(since)) {
                        fresh++;
                    }
                }
                if (fresh == targets.size() && active.size() == targets.size()) {
                    return;
                }
                last = seen.toString();
            } catch (IOException e) {
                last = e.toString();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Prometheus on " + url() + " did not scrape " + targets + " after "
                        + since + " within " + timeout + ": " + last);
            }
            pause(100);
        }
    }

    /** Stops it (SIGTERM, then SIGKILL after 10 s) and removes its folder; a second call does nothing. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook runs
        }
        stopQuietly();
    }

    @Override
    public String toString() {
        return "Prometheus " + url() + " (pid " + process.pid() + ", scraping " + targets + ")";
    }

    private synchronized void stopQuietly() {
        if (closed) {
            return;
        }
        closed = true;
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        deleteTree(dir);
    }

    private JsonNode get(String pathAndQuery) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url() + pathAndQuery)).timeout(Duration.ofSeconds(5))
                .GET().build();
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException("HTTP " + r.statusCode() + ": " + r.body());
            }
            return JSON.readTree(r.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    // ------------------------------------------------------------------------------------------ launch ------

    /** What to scrape and how often; {@link #start()} launches it. */
    public static final class Builder {
        private final List<String> targets = new ArrayList<>();
        private Duration scrapeInterval = DEFAULT_SCRAPE_INTERVAL;
        private Duration startTimeout = DEFAULT_START_TIMEOUT;

        public Builder targets(String... hostPorts) {
            targets.addAll(List.of(hostPorts));
            return this;
        }

        public Builder scrapeInterval(Duration interval) {
            this.scrapeInterval = interval;
            return this;
        }

        public Builder startTimeout(Duration timeout) {
            this.startTimeout = timeout;
            return this;
        }

        public PrometheusServer start() {
            Optional<String> installFailed = BuildInstalls.await("prometheus");
            if (!Files.isExecutable(BINARY)) {
                throw new IllegalStateException("The metric gate's tests need Debian's prometheus (" + BINARY
                        + "), which is not installed. Install it with service/src/test/scripts/install-prometheus.sh"
                        + " (apt-get install -y --no-install-recommends prometheus)."
                        + installFailed.map(why -> " " + why).orElse(""));
            }
            for (int attempt = 1; ; attempt++) {
                try {
                    return launch(this);
                } catch (PortClashException e) {
                    if (attempt == 3) {
                        throw e;
                    }
                    LOG.warnf("%s; trying another port", e.getMessage());
                }
            }
        }
    }

    private static final class PortClashException extends IllegalStateException {
        PortClashException(String message) {
            super(message);
        }
    }

    private static PrometheusServer launch(Builder b) {
        int port = freePort();
        Path dir;
        try {
            dir = Files.createTempDirectory("qawk-prometheus-");
            Files.writeString(dir.resolve("prometheus.yml"), config(b.targets, b.scrapeInterval));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare Prometheus' folder", e);
        }
        List<String> cmd = List.of(BINARY.toString(),
                "--config.file=" + dir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--storage.tsdb.retention.time=1h",
                "--web.listen-address=127.0.0.1:" + port);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile());
        long t0 = System.nanoTime();
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            deleteTree(dir);
            throw new UncheckedIOException("cannot start Prometheus: " + cmd, e);
        }
        PrometheusServer server = new PrometheusServer(process, port, dir, b.targets);
        try {
            server.awaitReady(b.startTimeout);
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        LOG.infof("%s ready after %d ms", server, (System.nanoTime() - t0) / 1_000_000L);
        return server;
    }

    /** The configuration: one job scraping the targets at the interval, nothing else (no rules, no alerting). */
    static String config(List<String> targets, Duration interval) {
        String every = interval.toMillis() + "ms";
        StringBuilder sb = new StringBuilder()
                .append("global:\n")
                .append("  scrape_interval: ").append(every).append('\n')
                .append("  scrape_timeout: ").append(every).append('\n')
                .append("  evaluation_interval: ").append(every).append('\n')
                .append("scrape_configs:\n")
                .append("  - job_name: qawk-test\n")
                .append("    static_configs:\n")
                .append("      - targets: [");
        for (int i = 0; i < targets.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append('\'').append(targets.get(i)).append('\'');
        }
        return sb.append("]\n").toString();
    }

    private void awaitReady(Duration timeout) {
        HttpRequest probe = HttpRequest.newBuilder(URI.create(url() + "/-/ready")).timeout(Duration.ofSeconds(2))
                .GET().build();
        long deadline = System.nanoTime() + timeout.toNanos();
        int lastStatus = -1;
        while (true) {
            if (!process.isAlive()) {
                String tail = tail();
                if (tail.contains("address already in use")) {
                    throw new PortClashException("Prometheus could not bind port " + port);
                }
                throw new IllegalStateException("Prometheus exited with code " + process.exitValue()
                        + " before it was ready:\n" + tail);
            }
            try {
                HttpResponse<Void> r = http.send(probe, HttpResponse.BodyHandlers.discarding());
                lastStatus = r.statusCode();
                if (lastStatus == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for Prometheus", e);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Prometheus on " + url() + " not ready within " + timeout
                        + " (last HTTP status " + lastStatus + "):\n" + tail());
            }
            try {
                process.waitFor(100, TimeUnit.MILLISECONDS); // returns at once if the child dies
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for Prometheus", e);
            }
        }
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static Instant parseInstant(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (RuntimeException e) {
            return null; // "0001-01-01T00:00:00Z" before the first scrape parses; anything else is "not yet"
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis); // polling Prometheus' API with a deadline, not waiting instead of checking
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Prometheus", e);
        }
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    LOG.debugf("cannot delete %s: %s", p, e.getMessage());
                }
            });
        } catch (IOException e) {
            LOG.debugf("cannot delete %s: %s", root, e.getMessage());
        }
    }
}
