package io.qawk.orchestrator.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/** Reads the service's own Prometheus figures: every sample whose name starts with one of the given prefixes. */
final class Scrape {

    private Scrape() {
    }

    /** {@code name{labels}} → value. */
    static Map<String, Double> metrics(String baseUrl, String... prefixes) {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create(baseUrl.replaceAll("/$", "") + "/q/metrics")).timeout(Duration.ofSeconds(30)).GET()
                    .build(), HttpResponse.BodyHandlers.ofString());
            Map<String, Double> out = new TreeMap<>();
            for (String line : r.body().split("\n")) {
                for (String prefix : prefixes) {
                    int space = line.lastIndexOf(' ');
                    if (line.startsWith(prefix) && space > 0) {
                        out.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
                    }
                }
            }
            return out;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read /q/metrics", e);
        }
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
