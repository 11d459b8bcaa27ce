package io.qawk.orchestrator.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

import org.jboss.logging.Logger;

/** Reads the service's own Prometheus figures: every sample whose name starts with one of the given prefixes. */
final class Scrape {

    private static final Logger LOG = Logger.getLogger(Scrape.class);

    private Scrape() {
    }

    /**
     * {@code name{labels}} → value. Asked up to three times: once at 200 lanes, under a load of 25, the answer ended
     * before its body (EOF; not diagnosed); a third failure in a row fails the benchmark. Each failed try
     * is logged with its cause.
     */
    static Map<String, Double> metrics(String baseUrl, String... prefixes) {
        IllegalStateException failed = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            try {
                return parse(HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                                URI.create(baseUrl.replaceAll("/$", "") + "/q/metrics")).timeout(Duration.ofSeconds(30))
                        .GET().build(), HttpResponse.BodyHandlers.ofString()).body(), prefixes);
            } catch (Exception e) {
                LOG.warnf(e, "reading /q/metrics failed (try %d of 3)", attempt);
                failed = failed == null ? new IllegalStateException("cannot read /q/metrics", e) : failed;
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        throw failed;
    }

    private static Map<String, Double> parse(String body, String... prefixes) {
        Map<String, Double> out = new TreeMap<>();
        for (String line : body.split("\n")) {
            for (String prefix : prefixes) {
                int space = line.lastIndexOf(' ');
                if (line.startsWith(prefix) && space > 0) {
                    out.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
                }
            }
        }
        return out;
    }

    /** after − before for every sample of {@code after}. */
    static Map<String, Double> delta(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Double> out = new TreeMap<>();
        after.forEach((k, v) -> out.put(k, v - before.getOrDefault(k, 0.0)));
        return out;
    }

    /** Sum of the samples whose name starts with {@code name}. */
    static double sum(Map<String, Double> samples, String name) {
        return samples.entrySet().stream().filter(e -> e.getKey().startsWith(name)).mapToDouble(Map.Entry::getValue).sum();
    }
}
