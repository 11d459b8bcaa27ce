package io.qawk.orchestrator.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP proxy on 127.0.0.1 in front of a hawkBit that makes its client a non-whitelisted one: it adds
 * {@code X-Forwarded-For: 203.0.113.7}, which hawkBit's DoS filter reads as the client's address
 * ({@code hawkbit.server.security.clients.remote-ip-header}). 203.0.113.0/24 is TEST-NET-3 (RFC 5737), a
 * documentation range: only a header value, nothing is ever sent there.
 * <p>
 * It counts what passes, as hawkBit's DoS filter does (a GET reads, anything else writes): requests, the 429s hawkBit
 * answered, and the most reads and writes that started within one second. On request it refuses requests with a 429
 * of its own ({@link #refuseNext}), as a hosted hawkBit's quota would, with a {@code Retry-After}.
 * <p>
 * Tests in another class loader than the one that started it (a Quarkus test resource and its test class) read its
 * figures over HTTP: {@code GET /__proxy/counts} answers {@code name=value} lines; {@code POST
 * /__proxy/refuse?count=n&retryAfter=s} arms the refusals.
 */
public final class ForwardedForProxy implements AutoCloseable {

    /** The client address hawkBit is told (TEST-NET-3, RFC 5737). */
    public static final String CLIENT_ADDRESS = "203.0.113.7";
    private static final String ADMIN = "/__proxy/";
    private static final Set<String> NOT_COPIED = Set.of("connection", "content-length", "expect", "host", "upgrade",
            "transfer-encoding", "keep-alive", "te", "trailer", "proxy-connection", "x-forwarded-for");

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(24, r -> {
        Thread t = new Thread(r, "forwarded-for-proxy");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).followRedirects(HttpClient.Redirect.NEVER).executor(threads).build();
    private final String target;
    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong refusedByHawkbit = new AtomicLong();
    private final AtomicLong refusedHere = new AtomicLong();
    private final AtomicInteger toRefuse = new AtomicInteger();
    private volatile long retryAfterSeconds = 1;
    private final ConcurrentLinkedQueue<Long> readStarts = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Long> writeStarts = new ConcurrentLinkedQueue<>();

    private ForwardedForProxy(String target) throws IOException {
        this.target = target.endsWith("/") ? target.substring(0, target.length() - 1) : target;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.createContext("/", this::handle);
        server.setExecutor(threads);
        server.start();
    }

    /** Starts a proxy in front of {@code target} (a base URL such as {@code http://127.0.0.1:8080}). */
    public static ForwardedForProxy start(String target) {
        try {
            return new ForwardedForProxy(target);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the X-Forwarded-For proxy", e);
        }
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The next {@code count} requests are refused here with 429 and {@code Retry-After: retryAfterSeconds}. */
    public void refuseNext(int count, long retryAfterSeconds) {
        this.retryAfterSeconds = retryAfterSeconds;
        toRefuse.set(count);
    }

    /** The figures so far: requests, reads, writes, refusedByHawkbit, refusedHere, maxReadsPerSecond, maxWritesPerSecond. */
    public Map<String, Long> counts() {
        return Map.of("requests", reads.get() + writes.get(), "reads", reads.get(), "writes", writes.get(),
                "refusedByHawkbit", refusedByHawkbit.get(), "refusedHere", refusedHere.get(),
                "maxReadsPerSecond", maxInOneSecond(readStarts), "maxWritesPerSecond", maxInOneSecond(writeStarts));
    }

    /** {@link #counts()} of the proxy at {@code proxyUrl}, read over HTTP (from any class loader). */
    public static Map<String, Long> counts(String proxyUrl) {
        String body = admin(proxyUrl, "GET", "counts");
        Map<String, Long> out = new TreeMap<>();
        for (String line : body.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                out.put(line.substring(0, eq), Long.parseLong(line.substring(eq + 1).strip()));
            }
        }
        return out;
    }

    /** {@link #refuseNext} of the proxy at {@code proxyUrl}, over HTTP. */
    public static void refuseNext(String proxyUrl, int count, long retryAfterSeconds) {
        admin(proxyUrl, "POST", "refuse?count=" + count + "&retryAfter=" + retryAfterSeconds);
    }

    private static String admin(String proxyUrl, String method, String what) {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(proxyUrl + ADMIN
                    + what)).method(method, HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("proxy admin " + what + ": HTTP " + r.statusCode());
            }
            return r.body();
        } catch (IOException e) {
            throw new IllegalStateException("proxy admin " + what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getRawPath();
            if (path.startsWith(ADMIN)) {
                admin(exchange, path.substring(ADMIN.length()));
                return;
            }
            boolean read = "GET".equals(exchange.getRequestMethod());
            (read ? reads : writes).incrementAndGet();
            (read ? readStarts : writeStarts).add(System.nanoTime());
            if (toRefuse.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
                refusedHere.incrementAndGet();
                exchange.getResponseHeaders().add("Retry-After", String.valueOf(retryAfterSeconds));
                exchange.sendResponseHeaders(429, -1);
                return;
            }
            forward(exchange);
        }
    }

    private void forward(HttpExchange exchange) throws IOException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target + exchange.getRequestURI()))
                .timeout(Duration.ofSeconds(60))
                .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!NOT_COPIED.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(v -> request.header(name, v));
            }
        });
        request.header("X-Forwarded-For", CLIENT_ADDRESS);
        HttpResponse<byte[]> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            exchange.sendResponseHeaders(502, -1);
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exchange.sendResponseHeaders(502, -1);
            return;
        }
        if (response.statusCode() == 429) {
            refusedByHawkbit.incrementAndGet();
        }
        response.headers().map().forEach((name, values) -> {
            if (!NOT_COPIED.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
                exchange.getResponseHeaders().put(name, new ArrayList<>(values));
            }
        });
        byte[] out = response.body();
        int status = response.statusCode();
        boolean noBody = out.length == 0 || status == 204 || status == 304 || "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(status, noBody ? -1 : out.length);
        if (!noBody) {
            try (OutputStream os = exchange.getResponseBody()) {
                os.write(out);
            }
        }
    }

    private void admin(HttpExchange exchange, String what) throws IOException {
        String answer;
        if (what.equals("counts")) {
            StringBuilder b = new StringBuilder();
            counts().forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
            answer = b.toString();
        } else if (what.equals("refuse")) {
            String query = exchange.getRequestURI().getRawQuery();
            int count = 0;
            long retryAfter = 1;
            for (String p : query == null ? new String[0] : query.split("&")) {
                String[] kv = p.split("=", 2);
                if (kv.length == 2 && kv[0].equals("count")) {
                    count = Integer.parseInt(kv[1]);
                } else if (kv.length == 2 && kv[0].equals("retryAfter")) {
                    retryAfter = Long.parseLong(kv[1]);
                }
            }
            refuseNext(count, retryAfter);
            answer = "ok\n";
        } else {
            exchange.sendResponseHeaders(404, -1);
            return;
        }
        byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream os = exchange.getResponseBody()) {
            os.write(bytes);
        }
    }

    /** The most starts within any one second (a window from each start). */
    private static long maxInOneSecond(ConcurrentLinkedQueue<Long> starts) {
        List<Long> sorted = new ArrayList<>(starts);
        sorted.sort(null);
        long max = 0;
        int j = 0;
        for (int i = 0; i < sorted.size(); i++) {
            while (sorted.get(i) - sorted.get(j) >= 1_000_000_000L) {
                j++;
            }
            max = Math.max(max, i - j + 1);
        }
        return max;
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
