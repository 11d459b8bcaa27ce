package io.qawk.orchestrator.hawkbit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.vertx.core.VertxException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The transport under {@link HawkbitGateway}: builds the REST client {@link HawkbitApi} from {@link HawkbitConfig},
 * times every attempt ({@code qawk.hawkbit.requests}, tags {@code operation} and {@code outcome}: success,
 * client_error, server_error, transport_error), runs calls through {@link HawkbitGuard}, pages through list answers
 * and reads hawkBit's JSON into {@link HawkbitShapes}.
 * <p>
 * Errors: a transport error or 5xx is {@link HawkbitGuard.Transient} (retried); a 429 pauses its kind of request for
 * every caller ({@link RequestBudget}) and is sent again, outside the guard; an answer that is not what the
 * API promises, no URL or no credentials is {@link HawkbitUnavailableException}; a 404 of a target-scoped call is
 * {@link TargetNotFoundException}; any other 4xx {@link HawkbitRequestException}, with hawkBit's message shortened
 * and anything that could be a credential removed.
 * <p>
 * One class: the attempt, its metric and the reading of answers share one {@link Reply} and must agree on what is
 * retried, refused or malformed.
 */
final class HawkbitClient implements Closeable {

    private static final Logger LOG = Logger.getLogger(HawkbitClient.class);

    static final String METRIC = "qawk.hawkbit.requests";
    /** Every request sent, by kind, method, path family and outcome class (2xx, 3xx, 4xx, 429, 5xx, io-error). */
    static final String COUNTED = "qawk.hawkbit.http.requests";
    /** How long requests waited for their turn (the budget, a 429's pause) before they were sent, by kind. */
    static final String WAITED = "qawk.hawkbit.waited";
    /** How long hawkBit's 429s paused a kind of request, each pause counted once, by kind. */
    static final String RATE_LIMITED = "qawk.hawkbit.rate.limited";
    /** 429s one call waits out before it gives up as hawkBit unavailable. */
    static final int MAX_RATE_LIMITED = 30;
    /** The largest Content-Length an answer's array is made for at once (a page of 500 targets is ~0.3 MB). */
    static final int MAX_PRESIZED_BODY = 16 << 20;
    /** hawkBit silently caps {@code limit} at this. */
    static final int HAWKBIT_MAX_PAGE = 500;

    /**
     * An HTTP answer of any status; {@code bytes} is empty (never null) when hawkBit sent none. Kept as bytes: Jackson
     * reads them straight into records, without a String or a JSON tree in between (the inventory sync reads 300,000
     * answers at 100,000 targets; see docs/benchmarks.md, "Decisions the figures made").
     */
    record Reply(int status, byte[] bytes, String retryAfter) {
        Reply(int status, byte[] bytes) {
            this(status, bytes, null);
        }

        boolean isSuccess() {
            return status >= 200 && status < 300;
        }

        /** The body as text (for error messages; answers are read from {@link #bytes()}). */
        String body() {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        boolean hasBody() {
            if (status == 204) {
                return false;
            }
            for (byte b : bytes) {
                if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                    return true;
                }
            }
            return false;
        }
    }

    /** A list answer's page, read straight into its elements; {@code content} null when hawkBit sent none. */
    record PageShape<T>(List<T> content, Long total) {
    }

    /** One page request: offset and limit in, hawkBit's answer out. */
    interface PageRequest {
        Response fetch(HawkbitApi api, long offset, int limit);
    }

    private final HawkbitConfig config;
    private final MeterRegistry registry;
    private final HawkbitGuard guard;
    private final ObjectMapper json = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    /** One timer per operation and outcome, looked up once rather than built per request. */
    private final ConcurrentMap<String, Timer> timers = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> counters = new ConcurrentHashMap<>();
    private final RequestBudget budget;
    private final AnswerWatch watch = new AnswerWatch();
    private HawkbitApi api;
    /** The readiness ping's client: its read timeout is at most {@code hang-after}. */
    private HawkbitApi pingApi;
    private boolean built;

    HawkbitClient(HawkbitConfig config, MeterRegistry registry) {
        this.config = config;
        this.registry = registry;
        this.guard = new HawkbitGuard(config);
        this.budget = new RequestBudget(config.budget().readsPerSecond(), config.budget().writesPerSecond());
    }

    /**
     * Builds the REST client now rather than on the first call (a cold build costs a second or more on a busy
     * machine, which the first sync after start would otherwise pay); a configuration problem is left for the first
     * call to report, as before.
     */
    void warmUp() {
        try {
            api();
        } catch (HawkbitUnavailableException e) {
            // not configured, or misconfigured: the first call says so
        }
    }

    boolean isConfigured() {
        return config.url().filter(url -> !url.isBlank()).isPresent();
    }

    // ---------------------------------------------------------------- calls

    /** One call, in its turn, with retries and the breaker; 5xx/429 never come back, every other answer does. */
    Reply call(String operation, Function<HawkbitApi, Response> request) {
        HawkbitApi client = api();
        ApiCall call = ApiCall.of(request);
        RequestBudget.Priority priority = RequestBudget.priority();
        for (int limited = 0; ; limited++) {
            // the turn is waited for outside the guard: waiting is no attempt, and no attempt's time limit runs
            awaitTurn(operation, call, priority);
            AtomicBoolean first = new AtomicBoolean(true);
            try {
                return guard.call(operation, () -> {
                    if (!first.getAndSet(false)) {
                        awaitTurn(operation, call, priority); // a retry is a request too
                    }
                    return attempt(operation, client, call);
                });
            } catch (RateLimited e) {
                if (limited + 1 >= MAX_RATE_LIMITED || e.retryAfter.compareTo(RequestBudget.MAX_RETRY_AFTER) > 0) {
                    throw new HawkbitUnavailableException("hawkBit unavailable: " + operation + " refused with 429 "
                            + (limited + 1) + " time(s), last asking to wait " + e.retryAfter.toSeconds() + " s");
                }
                // the kind is paused for every caller; the next turn comes after the pause
            }
        }
    }

    /** hawkBit answered 429: not a failure of hawkBit nor of the request, a turn to wait for ({@link #call}). */
    private static final class RateLimited extends RuntimeException {
        final Duration retryAfter;

        RateLimited(Duration retryAfter) {
            super("HTTP 429", null, false, false);
            this.retryAfter = retryAfter;
        }
    }

    private void awaitTurn(String operation, ApiCall call, RequestBudget.Priority priority) {
        long waited;
        try {
            waited = budget.acquire(call.kind(), priority);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HawkbitUnavailableException("hawkBit unavailable: " + operation
                    + " interrupted while waiting for its turn");
        }
        if (waited > 0) {
            seconds(WAITED, "How long Qawk's requests to hawkBit waited for their turn", call.kind(), waited);
        }
    }

    /** How long hawkBit's 429s have paused Qawk's requests since start ({@link RequestBudget#rateLimited}). */
    Duration rateLimited() {
        return budget.rateLimited();
    }

    /** One GET of one target page, without retries or breaker; false when not configured or not answering 2xx. */
    boolean ping() {
        try {
            if (!isConfigured()) {
                return false;
            }
            api();
            HawkbitApi client = pingApi;
            ApiCall call = ApiCall.of(a -> a.targets(0, 1, null, null));
            awaitTurn("ping", call, RequestBudget.Priority.FIRST);
            long start = System.nanoTime();
            Reply reply;
            try {
                reply = exchange("ping", client, call);
            } catch (HawkbitGuard.Transient e) {
                record("ping", "transport_error", start);
                LOG.debugf("hawkBit ping failed: %s", e.getMessage());
                return false;
            }
            record("ping", outcomeOf(reply.status()), start);
            return reply.isSuccess();
        } catch (RuntimeException e) {
            LOG.debugf("hawkBit ping failed: %s", e.getMessage());
            return false;
        }
    }

    /**
     * Pages through a list answer ({@code content}, or the answer itself when it is an array) to its end, handing
     * each non-empty page, read as {@code type}, to {@code consumer}. {@code controllerId}: a 404 means that target.
     */
    <T> void pageThrough(String operation, String controllerId, PageRequest request, Class<T> type,
            Consumer<List<T>> consumer) {
        int limit = pageLimit();
        long offset = 0;
        while (true) {
            long from = offset;
            Reply reply = call(operation, a -> request.fetch(a, from, limit));
            if (reply.status() == 204) {
                return;
            }
            failUnlessSuccess(operation, reply, controllerId);
            if (!reply.hasBody()) {
                throw malformed(operation, "empty answer");
            }
            boolean isArray = startsWithArray(reply.bytes());
            List<T> items;
            Long total = null;
            try {
                if (isArray) {
                    items = json.readValue(reply.bytes(), json.getTypeFactory().constructCollectionType(List.class, type));
                } else {
                    PageShape<T> page = json.readValue(reply.bytes(),
                            json.getTypeFactory().constructParametricType(PageShape.class, type));
                    items = page == null || page.content() == null ? List.of() : page.content();
                    total = page == null ? null : page.total();
                }
            } catch (IOException | IllegalArgumentException e) {
                throw unreadable(operation, e, "not a list of " + type.getSimpleName());
            }
            if (items.contains(null)) {
                throw malformed(operation, "null where " + type.getSimpleName() + " expected");
            }
            if (!items.isEmpty()) {
                consumer.accept(Collections.unmodifiableList(items));
            }
            offset += items.size();
            boolean done = items.isEmpty() || isArray || (total != null ? offset >= total : items.size() < limit);
            if (done) {
                return;
            }
        }
    }

    int pageLimit() {
        return Math.max(1, Math.min(config.pageSize(), HAWKBIT_MAX_PAGE));
    }

    // ---------------------------------------------------------------- answers

    /** The answer's JSON; fails unless it is a 2xx with a body. */
    JsonNode okJson(String operation, Reply reply, String controllerId) {
        failUnlessSuccess(operation, reply, controllerId);
        if (!reply.hasBody()) {
            throw malformed(operation, "empty answer");
        }
        return parse(operation, reply);
    }

    /** The answer read as {@code type}, or empty for 204/no body; fails unless 2xx. */
    <T> Optional<T> optional(String operation, Reply reply, String controllerId, Class<T> type) {
        failUnlessSuccess(operation, reply, controllerId);
        if (!reply.hasBody()) {
            return Optional.empty();
        }
        return Optional.of(value(operation, reply, type));
    }

    /** The answer read as {@code type}; fails unless it is a 2xx with a body. */
    <T> T okValue(String operation, Reply reply, String controllerId, Class<T> type) {
        failUnlessSuccess(operation, reply, controllerId);
        if (!reply.hasBody()) {
            throw malformed(operation, "empty answer");
        }
        return value(operation, reply, type);
    }

    private <T> T value(String operation, Reply reply, Class<T> type) {
        try {
            T value = json.readValue(reply.bytes(), type);
            if (value == null) {
                throw malformed(operation, "null where " + type.getSimpleName() + " expected");
            }
            return value;
        } catch (IOException | IllegalArgumentException e) {
            throw unreadable(operation, e, "not a " + type.getSimpleName());
        }
    }

    /** Not JSON at all (also when the mapper wrapped the parser's error with its path), or JSON of another shape. */
    private static HawkbitUnavailableException unreadable(String operation, Exception e, String shape) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StreamReadException) {
                return new HawkbitUnavailableException("hawkBit answered malformed JSON to " + operation, e);
            }
        }
        return malformed(operation, shape);
    }

    private static boolean startsWithArray(byte[] bytes) {
        for (byte b : bytes) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return b == '[';
            }
        }
        return false;
    }

    void failUnlessSuccess(String operation, Reply reply, String controllerId) {
        if (reply.isSuccess()) {
            return;
        }
        if (reply.status() == 404 && controllerId != null) {
            throw new TargetNotFoundException(controllerId, "hawkBit knows no target '" + controllerId + "'");
        }
        String message = hawkbitMessage(reply);
        throw new HawkbitRequestException(reply.status(), error(reply).errorCode(),
                message.isEmpty() ? null : message.substring(2, message.length() - 1),
                "hawkBit refused " + operation + ": HTTP " + reply.status() + message);
    }

    JsonNode parse(String operation, Reply reply) {
        try {
            JsonNode node = json.readTree(reply.bytes());
            if (node == null || node.isMissingNode()) {
                throw malformed(operation, "empty answer");
            }
            return node;
        } catch (IOException e) {
            throw new HawkbitUnavailableException("hawkBit answered malformed JSON to " + operation, e);
        }
    }

    <T> T read(String operation, JsonNode node, Class<T> type) {
        try {
            T value = json.treeToValue(node, type);
            if (value == null) {
                throw malformed(operation, "null where " + type.getSimpleName() + " expected");
            }
            return value;
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw malformed(operation, "not a " + type.getSimpleName());
        }
    }

    static HawkbitUnavailableException malformed(String operation, String what) {
        return new HawkbitUnavailableException("hawkBit answered malformed " + operation + " (" + what + ")");
    }

    /** hawkBit's error body, or an empty one when it sent none (or no JSON, e.g. a proxy's HTML page). */
    private HawkbitShapes.ErrorBody error(Reply reply) {
        if (reply.isSuccess() || !reply.hasBody()) {
            return new HawkbitShapes.ErrorBody(null, null);
        }
        try {
            HawkbitShapes.ErrorBody body = json.readValue(reply.bytes(), HawkbitShapes.ErrorBody.class);
            return body == null ? new HawkbitShapes.ErrorBody(null, null) : body;
        } catch (IOException | IllegalArgumentException e) {
            return new HawkbitShapes.ErrorBody(null, null);
        }
    }

    /** hawkBit's own error message, shortened, with anything that could be a credential removed. */
    private String hawkbitMessage(Reply reply) {
        String message = error(reply).message();
        if (message == null || message.isBlank()) {
            return "";
        }
        return " (" + redact(message.length() > 300 ? message.substring(0, 300) + "…" : message) + ")";
    }

    private String redact(String text) {
        String out = text.replaceAll("(?i)(basic|bearer|targettoken|gatewaytoken)\\s+\\S+", "$1 ****");
        String password = config.password().orElse(null);
        if (password != null && password.length() >= 3) {
            out = out.replace(password, "****");
            out = out.replace(basic(config.user().orElse(""), password), "****");
        }
        return out;
    }

    // ---------------------------------------------------------------- transport, metrics

    /** One HTTP exchange, timed; 5xx and transport failures become {@link HawkbitGuard.Transient}, a 429 a pause. */
    private Reply attempt(String operation, HawkbitApi client, ApiCall call) {
        long start = System.nanoTime();
        Reply reply;
        try {
            reply = exchange(operation, client, call);
        } catch (HawkbitGuard.Transient e) {
            record(operation, "transport_error", start);
            throw e;
        }
        record(operation, outcomeOf(reply.status()), start);
        if (reply.status() == 429) {
            // hawkBit's limit: every caller of the kind waits it out, then this call is sent again
            Duration retryAfter = RequestBudget.retryAfter(reply.retryAfter(), Instant.now());
            Duration paused = budget.pause(call.kind(), retryAfter.compareTo(RequestBudget.MAX_RETRY_AFTER) > 0
                    ? Duration.ZERO : retryAfter);
            LOG.debugf("hawkBit refused %s with 429: %s requests paused %d ms more", operation,
                    call.kind().label(), paused.toMillis());
            if (!paused.isZero()) {
                seconds(RATE_LIMITED, "How long hawkBit's 429s paused Qawk's requests", call.kind(), paused.toNanos());
            }
            throw new RateLimited(retryAfter);
        }
        if (HawkbitAnswer.of(reply.status(), error(reply).errorCode()).retry()) {
            throw new HawkbitGuard.Transient(operation + ": HTTP " + reply.status() + hawkbitMessage(reply), null);
        }
        return reply;
    }

    /**
     * The request and its whole body; no HTTP answer (connect error, timeout, reset, a connection closed under the
     * request) is a transient failure. Vert.x fails a request whose kept-alive connection closes as it is picked with
     * a {@link VertxException} ({@code HttpClosedException}) that the REST client does not wrap.
     */
    private Reply exchange(String operation, HawkbitApi client, ApiCall call) {
        long sent = watch.sent();
        int status = -1;
        try (Response response = call.send(client)) {
            status = response.getStatus();
            byte[] body = response.hasEntity()
                    ? readBody(response.readEntity(InputStream.class), response.getLength()) : null;
            return new Reply(status, body == null ? new byte[0] : body,
                    status == 429 ? response.getHeaderString("Retry-After") : null);
        } catch (ProcessingException | IOException | VertxException e) {
            throw new HawkbitGuard.Transient(describe(operation, e), e);
        } finally {
            if (status >= 0) {
                watch.answered(sent);
            } else {
                watch.unanswered(sent);
            }
            count(call, status);
        }
    }

    /** Counts a request sent: {@code status} -1 when no answer came (io-error). */
    private void count(ApiCall call, int status) {
        String outcome = outcomeClass(status);
        counters.computeIfAbsent(call.kind().label() + ' ' + call.method() + ' ' + call.family() + ' ' + outcome,
                k -> Counter.builder(COUNTED)
                        .description("Requests Qawk sent to hawkBit's Management API")
                        .tag("kind", call.kind().label())
                        .tag("method", call.method())
                        .tag("family", call.family())
                        .tag("outcome", outcome)
                        .register(registry))
                .increment();
    }

    /** The outcome label of a request: 2xx, 3xx, 4xx, 429, 5xx, or io-error when hawkBit sent no answer. */
    static String outcomeClass(int status) {
        if (status < 0) {
            return "io-error";
        }
        if (status == 429) {
            return "429";
        }
        if (status >= 500) {
            return "5xx";
        }
        if (status >= 400) {
            return "4xx";
        }
        return status >= 300 ? "3xx" : status >= 200 ? "2xx" : "1xx";
    }

    private void seconds(String name, String description, ApiCall.Kind kind, long nanos) {
        counters.computeIfAbsent(name + ' ' + kind.label(), k -> Counter.builder(name)
                        .description(description)
                        .baseUnit("seconds")
                        .tag("kind", kind.label())
                        .register(registry))
                .increment(nanos / 1e9);
    }

    /** How long hawkBit has left requests unanswered ({@link AnswerWatch}); empty when it answered all. */
    Optional<Duration> silentFor() {
        return watch.silentFor();
    }

    /** The readiness ping waits for hawkBit at most this long: the read timeout, or {@code hang-after} if shorter. */
    Duration pingTimeout() {
        return config.hangAfter().compareTo(config.readTimeout()) < 0 ? config.hangAfter() : config.readTimeout();
    }

    /**
     * The whole body in one array of its size: {@code length} is the answer's Content-Length (-1 when it has none),
     * else what the client holds already ({@code available()}), and more if more comes. Reading answers as
     * {@code byte[]} or {@code String} cost an 8-16 KB buffer and a copy per answer, which at the first sync's
     * 300,000 answers was most of what it allocated (JFR); so did {@code available()} alone, since hawkBit's answers
     * arrive in more than one piece (docs/benchmarks.md, "Decisions the figures made").
     */
    static byte[] readBody(InputStream in, long length) throws IOException {
        if (in == null) {
            return null;
        }
        try (in) {
            if (length == 0) {
                return new byte[0];
            }
            // a length beyond any answer of hawkBit's is not trusted with an array of that size
            int size = length > 0 && length <= MAX_PRESIZED_BODY ? (int) length : in.available();
            if (size <= 0) {
                return in.readAllBytes();
            }
            byte[] body = new byte[size];
            int read = in.readNBytes(body, 0, size);
            if (read < size) {
                return Arrays.copyOf(body, read);
            }
            int next = in.read();
            if (next < 0) {
                return body;
            }
            byte[] rest = in.readAllBytes();
            byte[] all = Arrays.copyOf(body, body.length + 1 + rest.length);
            all[body.length] = (byte) next;
            System.arraycopy(rest, 0, all, body.length + 1, rest.length);
            return all;
        }
    }

    /** Names the cause without the request's headers; a timeout says how long was waited. */
    private String describe(String operation, Throwable e) {
        Throwable root = e;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getClass().getSimpleName().contains("Timeout")) {
                return operation + ": no answer within " + config.readTimeout().toMillis() + " ms";
            }
            root = t;
        }
        return operation + ": " + root.getClass().getSimpleName() + (root.getMessage() == null ? "" : " " + root.getMessage());
    }

    private void record(String operation, String outcome, long startNanos) {
        timers.computeIfAbsent(operation + ' ' + outcome, k -> Timer.builder(METRIC)
                .description("HTTP requests to hawkBit's Management API")
                .tag("operation", operation)
                .tag("outcome", outcome)
                .register(registry))
                .record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    private static String outcomeOf(int status) {
        if (status >= 500) {
            return "server_error";
        }
        return status >= 400 ? "client_error" : "success";
    }

    private synchronized HawkbitApi api() {
        if (!built) {
            try {
                api = build(config, config.readTimeout());
                pingApi = build(config, pingTimeout());
            } catch (IllegalArgumentException e) {
                throw new HawkbitUnavailableException("qawk.hawkbit.url is not a usable URL", e);
            }
            built = true;
        }
        if (api == null) {
            throw new HawkbitUnavailableException("hawkBit is not configured (set qawk.hawkbit.url)");
        }
        return api;
    }

    /** The REST client for {@code qawk.hawkbit.url}; null when it is not set. HTTP/1.1, no redirects, Basic auth. */
    private static HawkbitApi build(HawkbitConfig config, Duration readTimeout) {
        Optional<String> url = config.url().filter(u -> !u.isBlank());
        if (url.isEmpty()) {
            return null;
        }
        if (config.user().isEmpty() || config.password().isEmpty()) {
            throw new HawkbitUnavailableException(
                    "hawkBit is configured without credentials (set qawk.hawkbit.user and QAWK_HAWKBIT_PASSWORD)");
        }
        String trimmed = url.get().strip();
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        URI uri = URI.create(trimmed); // fails early on a malformed URL
        if (uri.getScheme() == null || uri.getHost() == null) {
            throw new IllegalArgumentException("qawk.hawkbit.url must be an absolute http(s) URL");
        }
        String authorization = "Basic " + basic(config.user().get(), config.password().get());
        return QuarkusRestClientBuilder.newBuilder()
                .baseUri(uri)
                .connectTimeout(config.connectTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(readTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .followRedirects(false)
                .disableDefaultMapper(true) // every status comes back as an answer; this class decides
                .register((ClientRequestFilter) request -> request.getHeaders()
                        .putSingle(HttpHeaders.AUTHORIZATION, authorization))
                .build(HawkbitApi.class);
    }

    private static String basic(String user, String password) {
        return Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** RFC 3986 percent-encoding (space as %20, not +), for path segments and query lengths alike. */
    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Override
    public synchronized void close() {
        for (HawkbitApi client : new HawkbitApi[] {api, pingApi}) {
            if (client instanceof Closeable closeable) {
                try {
                    closeable.close();
                } catch (IOException | RuntimeException e) {
                    LOG.debugf("closing the hawkBit client: %s", e.getMessage());
                }
            }
        }
        api = null;
        pingApi = null;
        built = false;
    }
}
