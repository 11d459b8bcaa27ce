package io.qawk.orchestrator.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prometheus' HTTP API, the one call a metric gate needs: an instant query ({@code GET /api/v1/query}) at
 * Prometheus' own "now" (never the service's clock, which tests move: the samples are real). One attempt, no retries:
 * an unanswered query is {@link PrometheusAnswer.Unavailable}, which never fails a system, and the soak asks again on
 * its next pass. The JDK's HTTP client rather than a Quarkus REST client: one GET whose every status is read here, no
 * Fault Tolerance wanted, and the client works (and is tested against a real Prometheus) without a Quarkus start.
 */
final class PrometheusClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_ERROR = 300;

    private final URI base;
    private final Duration timeout;
    private final HttpClient http;

    /** {@code url}: Prometheus' base URL, e.g. {@code http://prometheus:9090}; must be an absolute http(s) URL. */
    PrometheusClient(String url, Duration timeout) {
        this.base = baseUri(url);
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** The base URL as given, without a trailing slash; throws {@link IllegalArgumentException} when it is no URL. */
    static URI baseUri(String url) {
        String trimmed = url == null ? "" : url.strip();
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        URI uri;
        try {
            uri = URI.create(trimmed);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("qawk.prometheus.url is not a URL: " + e.getMessage(), e);
        }
        if (uri.getHost() == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
            throw new IllegalArgumentException("qawk.prometheus.url must be an absolute http(s) URL");
        }
        return uri;
    }

    /** Asks Prometheus for {@code promql} now. Never throws for what Prometheus or the network does. */
    PrometheusAnswer query(String promql) {
        URI uri = URI.create(base + "/api/v1/query?query=" + encode(promql) + "&timeout=" + timeout.toMillis() + "ms");
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json")
                .GET().build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpTimeoutException e) {
            return new PrometheusAnswer.Unavailable("Prometheus did not answer within " + seconds(timeout));
        } catch (IOException e) { // refused, reset, unknown host ...
            return new PrometheusAnswer.Unavailable("Prometheus cannot be reached (" + describe(e) + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new PrometheusAnswer.Unavailable("the query was interrupted");
        }
        return read(response.statusCode(), response.body());
    }

    /** Prometheus' answer, by status and body ({@code status}, {@code errorType}, {@code error}, {@code data}). */
    static PrometheusAnswer read(int status, String body) {
        JsonNode root;
        try {
            root = JSON.readTree(body == null ? "" : body);
        } catch (IOException e) {
            root = null;
        }
        if (root == null || !root.isObject() || !root.has("status")) {
            return new PrometheusAnswer.Unavailable("Prometheus answered HTTP " + status + " without its API's JSON");
        }
        String error = shorten(root.path("errorType").asText("") + ": " + root.path("error").asText(""));
        if (status == 400 && "bad_data".equals(root.path("errorType").asText())) {
            return new PrometheusAnswer.Rejected(shorten(root.path("error").asText("")));
        }
        if (status != 200 || !"success".equals(root.path("status").asText())) {
            return new PrometheusAnswer.Unavailable("Prometheus answered HTTP " + status + " (" + error + ")");
        }
        JsonNode data = root.path("data");
        String type = data.path("resultType").asText("");
        JsonNode result = data.path("result");
        try {
            switch (type) {
                case "vector" -> {
                    List<PrometheusAnswer.Sample> samples = new ArrayList<>();
                    for (JsonNode series : result) {
                        Map<String, String> labels = new LinkedHashMap<>();
                        series.path("metric").fields().forEachRemaining(f -> labels.put(f.getKey(), f.getValue().asText()));
                        samples.add(new PrometheusAnswer.Sample(labels, number(series.path("value").get(1))));
                    }
                    return new PrometheusAnswer.Numbers(samples);
                }
                case "scalar" -> {
                    return new PrometheusAnswer.Numbers(List.of(new PrometheusAnswer.Sample(Map.of(), number(result.get(1)))));
                }
                case "matrix", "string" -> {
                    return new PrometheusAnswer.NotNumbers(type);
                }
                default -> {
                    return new PrometheusAnswer.Unavailable("Prometheus answered a result of unknown type '"
                            + shorten(type) + "'");
                }
            }
        } catch (RuntimeException e) {
            return new PrometheusAnswer.Unavailable("Prometheus answered a result that cannot be read (" + describe(e) + ")");
        }
    }

    /** A sample value as Prometheus writes it: a JSON string, {@code "0.31"}, {@code "NaN"}, {@code "+Inf"}. */
    private static double number(JsonNode value) {
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException("a sample value is not a string");
        }
        return switch (value.asText()) {
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(value.asText());
        };
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String describe(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : shorten(m);
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    private static String shorten(String s) {
        return s.length() > MAX_ERROR ? s.substring(0, MAX_ERROR) + "…" : s;
    }
}
