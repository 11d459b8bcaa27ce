package io.qawk.orchestrator.hawkbit;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.StringJoiner;

/**
 * {@link HawkbitHttp} on the JDK's {@link HttpClient}: HTTP/1.1, no redirects, Basic auth, a connect timeout and a
 * per-request answer timeout. The JDK client does not log headers, and failures are reported with the request line
 * only, so the Authorization header cannot leak.
 */
final class JdkHawkbitHttp implements HawkbitHttp {

    private final String base;
    private final String authorization;
    private final Duration readTimeout;
    private final HttpClient client;

    JdkHawkbitHttp(String baseUrl, String user, String password, Duration connectTimeout, Duration readTimeout) {
        String trimmed = baseUrl.strip();
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        URI uri = URI.create(trimmed); // fails early on a malformed URL
        if (uri.getScheme() == null || uri.getHost() == null) {
            throw new IllegalArgumentException("qawk.hawkbit.url must be an absolute http(s) URL");
        }
        this.base = trimmed + "/rest/v1";
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        this.readTimeout = readTimeout;
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(connectTimeout)
                .build();
    }

    @Override
    public Reply get(String path, Map<String, String> query) {
        return send("GET", path + queryString(query), HttpRequest.BodyPublishers.noBody());
    }

    @Override
    public Reply post(String path, String jsonBody) {
        return send("POST", path, HttpRequest.BodyPublishers.ofString(jsonBody, StandardCharsets.UTF_8));
    }

    private Reply send(String method, String pathAndQuery, HttpRequest.BodyPublisher body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                .method(method, body)
                .timeout(readTimeout)
                .header("Authorization", authorization)
                .header("Accept", "application/json")
                .header("Content-Type", "application/json")
                .build();
        try {
            HttpResponse<String> response = client.send(request,
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            String text = response.body();
            return new Reply(response.statusCode(), text == null ? "" : text);
        } catch (HttpTimeoutException e) {
            throw new TransportFailure(method + " " + pathOnly(pathAndQuery) + ": no answer within "
                    + readTimeout.toMillis() + " ms", e);
        } catch (IOException e) {
            throw new TransportFailure(method + " " + pathOnly(pathAndQuery) + ": " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportFailure(method + " " + pathOnly(pathAndQuery) + ": interrupted", e);
        }
    }

    private static String pathOnly(String pathAndQuery) {
        int q = pathAndQuery.indexOf('?');
        return "/rest/v1" + (q < 0 ? pathAndQuery : pathAndQuery.substring(0, q));
    }

    private static String queryString(Map<String, String> query) {
        if (query == null || query.isEmpty()) {
            return "";
        }
        StringJoiner joiner = new StringJoiner("&", "?", "").setEmptyValue("");
        query.forEach((key, value) -> {
            if (value != null) {
                joiner.add(encode(key) + "=" + encode(value));
            }
        });
        return joiner.toString();
    }

    /** RFC 3986 percent-encoding (space as %20, not +), for query values and path segments alike. */
    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
