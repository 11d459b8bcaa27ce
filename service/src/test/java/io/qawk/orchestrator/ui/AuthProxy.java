package io.qawk.orchestrator.ui;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A reverse proxy on 127.0.0.1 that adds HTTP Basic credentials to every request it forwards to one origin, so that
 * the browser is logged in without the DevTools protocol (whose Selenium implementation must match the browser's
 * major version, which Debian's chromium does not always do). Location headers are pointed back at the proxy.
 * Tests may answer some requests themselves ({@link #intercept}) to show the screen states a real run rarely has.
 */
final class AuthProxy implements AutoCloseable {

    /** A request the browser made: method, path with query, body. */
    record Seen(String method, String uri, String body) {
    }

    /** An answer given instead of the service's. */
    record Answer(int status, String contentType, String body) {
        static Answer json(String body) {
            return new Answer(200, "application/json", body);
        }
    }

    /** Until closed, requests whose path matches are answered by the test. */
    interface Interception extends AutoCloseable {
        @Override
        void close();
    }

    private record Route(Predicate<String> matches, Function<Seen, Answer> answer) {
    }

    private final List<Route> routes = new CopyOnWriteArrayList<>();

    private static final Set<String> NOT_FORWARDED = Set.of("host", "connection", "content-length", "expect", "upgrade",
            "authorization", "keep-alive", "transfer-encoding", "te", "trailer", "proxy-connection");

    private final HttpServer server;
    private final HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final URI target;
    private final String authorization;

    private AuthProxy(URI target, String user, String password) throws IOException {
        this.target = URI.create(target.getScheme() + "://" + target.getHost() + ":" + target.getPort());
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::forward);
        server.setExecutor(Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "ui-auth-proxy");
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    /** A proxy to the origin (scheme, host, port) of {@code target}. */
    static AuthProxy to(URI target, String user, String password) {
        try {
            return new AuthProxy(target, user, password);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Interception intercept(Predicate<String> uriMatches, Function<Seen, Answer> answer) {
        Route route = new Route(uriMatches, answer);
        routes.add(route);
        return () -> routes.remove(route);
    }

    URI origin() {
        return target;
    }

    /** {@code uri} (on the target origin) as the browser must ask for it: through the proxy. */
    URI through(URI uri) {
        return URI.create(base() + uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery())
                + (uri.getRawFragment() == null ? "" : "#" + uri.getRawFragment()));
    }

    private String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void forward(HttpExchange ex) throws IOException {
        try (ex) {
            byte[] body;
            try (InputStream in = ex.getRequestBody()) {
                body = in.readAllBytes();
            }
            String uri = ex.getRequestURI().toString();
            for (Route route : routes) {
                if (route.matches().test(uri)) {
                    Answer a = route.answer().apply(new Seen(ex.getRequestMethod(), uri, new String(body, StandardCharsets.UTF_8)));
                    byte[] out = a.body().getBytes(StandardCharsets.UTF_8);
                    ex.getResponseHeaders().add("Content-Type", a.contentType());
                    ex.sendResponseHeaders(a.status(), out.length == 0 ? -1 : out.length);
                    if (out.length > 0) {
                        try (OutputStream os = ex.getResponseBody()) {
                            os.write(out);
                        }
                    }
                    return;
                }
            }
            HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(target + ex.getRequestURI().toString()))
                    .timeout(Duration.ofSeconds(60))
                    .method(ex.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body))
                    .header("Authorization", authorization);
            for (Map.Entry<String, List<String>> h : ex.getRequestHeaders().entrySet()) {
                if (!NOT_FORWARDED.contains(h.getKey().toLowerCase())) {
                    h.getValue().forEach(v -> req.header(h.getKey(), v));
                }
            }
            HttpResponse<byte[]> res;
            try {
                res = client.send(req.build(), HttpResponse.BodyHandlers.ofByteArray());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ex.sendResponseHeaders(502, -1);
                return;
            }
            res.headers().map().forEach((name, values) -> {
                String lower = name.toLowerCase();
                if (!NOT_FORWARDED.contains(lower) && !lower.equals(":status")) {
                    values.forEach(v -> ex.getResponseHeaders().add(name,
                            lower.equals("location") ? v.replace(target.toString(), base()) : v));
                }
            });
            byte[] out = res.body();
            boolean noBody = out.length == 0 || res.statusCode() == 204 || res.statusCode() == 304
                    || "HEAD".equals(ex.getRequestMethod());
            ex.sendResponseHeaders(res.statusCode(), noBody ? -1 : out.length);
            if (!noBody) {
                try (OutputStream os = ex.getResponseBody()) {
                    os.write(out);
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
