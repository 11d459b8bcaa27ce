package io.qawk.orchestrator.demo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The service's REST API as the demo uses it: JSON over HTTP with Basic auth, as an operator's script would. */
final class QawkApi {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String baseUrl;
    private final String authorization;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    QawkApi(String baseUrl, String user, String password) {
        this.baseUrl = baseUrl;
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    JsonNode get(String path) {
        return send(request(path).GET().build());
    }

    JsonNode post(String path, Object body) {
        try {
            String text = body == null ? "" : JSON.writeValueAsString(body);
            return send(request(path).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(text)).build());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + body, e);
        }
    }

    /** True when {@code GET /q/health/ready} answers 200. */
    boolean ready() {
        try {
            HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(baseUrl + "/q/health/ready"))
                    .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.discarding());
            return r.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(120))
                .header("Authorization", authorization).header("Accept", "application/json");
    }

    private JsonNode send(HttpRequest request) {
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() / 100 != 2) {
                throw new IllegalStateException(request.method() + " " + request.uri().getPath() + " answered "
                        + r.statusCode() + ": " + r.body());
            }
            return r.body().isBlank() ? JSON.nullNode() : JSON.readTree(r.body());
        } catch (IOException e) {
            throw new IllegalStateException(request.method() + " " + request.uri().getPath() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
