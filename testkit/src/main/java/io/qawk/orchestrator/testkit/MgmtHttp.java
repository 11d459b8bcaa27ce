package io.qawk.orchestrator.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;

/**
 * Minimal hawkBit Management API access (HTTP Basic) for the demo tooling: the simulator and {@link HawkbitFixtures}.
 * Not the orchestrator's hawkBit client.
 */
final class MgmtHttp {

    /** A Management API answer: status and parsed body ({@link MissingNode} when there is none). */
    record Response(int status, JsonNode body, String raw) {
        boolean ok() {
            return status >= 200 && status < 300;
        }

        Response requireOk(String what) {
            if (!ok()) {
                throw new HawkbitHttpException(what + " answered HTTP " + status + ": " + abbreviate(raw), status);
            }
            return this;
        }
    }

    /** Non-2xx answer from hawkBit. */
    static final class HawkbitHttpException extends RuntimeException {
        final int status;

        HawkbitHttpException(String message, int status) {
            super(message);
            this.status = status;
        }
    }

    static final ObjectMapper MAPPER = new ObjectMapper();

    private final String baseUrl;
    private final String authorization;
    private final HttpClient http;

    MgmtHttp(String baseUrl, String user, String password, HttpClient http) {
        this.baseUrl = stripSlash(baseUrl);
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        this.http = http;
    }

    String baseUrl() {
        return baseUrl;
    }

    Response get(String path) {
        return send(request(path).GET().build());
    }

    Response post(String path, Object body) {
        return send(request(path).POST(json(body)).build());
    }

    Response put(String path, Object body) {
        return send(request(path).PUT(json(body)).build());
    }

    Response delete(String path) {
        return send(request(path).DELETE().build());
    }

    CompletableFuture<Response> getAsync(String path) {
        return http.sendAsync(request(path).GET().build(), HttpResponse.BodyHandlers.ofString())
                .thenApply(MgmtHttp::toResponse);
    }

    private HttpRequest.Builder request(String path) {
        String url = path.startsWith("http") ? path : baseUrl + path;
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", authorization)
                .header("Accept", "application/json")
                .header("Content-Type", "application/json");
    }

    private Response send(HttpRequest req) {
        try {
            return toResponse(http.send(req, HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            throw new UncheckedIOException(req.method() + " " + req.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + req.method() + " " + req.uri(), e);
        }
    }

    static Response toResponse(HttpResponse<String> r) {
        return new Response(r.statusCode(), parse(r.body()), r.body());
    }

    static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return MissingNode.getInstance();
        }
        try {
            return MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            return MissingNode.getInstance();
        }
    }

    static HttpRequest.BodyPublisher json(Object body) {
        try {
            return HttpRequest.BodyPublishers.ofString(MAPPER.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new CompletionException(e);
        }
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    static String abbreviate(String s) {
        if (s == null) {
            return "";
        }
        return s.length() > 500 ? s.substring(0, 500) + "…" : s;
    }

    /** The last path segment of a hawkBit link, without query: {@code .../deploymentBase/17?c=-2} → 17. */
    static long lastId(String href) {
        String path = URI.create(href).getPath();
        return Long.parseLong(path.substring(path.lastIndexOf('/') + 1));
    }
}
