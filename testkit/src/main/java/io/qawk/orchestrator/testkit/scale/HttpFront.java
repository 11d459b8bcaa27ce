package io.qawk.orchestrator.testkit.scale;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.qawk.orchestrator.testkit.scale.ScaleHawkbitTypes.Op;

/**
 * The double's HTTP side: a JDK server on 127.0.0.1 and a free port that counts each request by {@link Op}, applies
 * the {@link Faults}, checks Basic authentication, settles due completions and routes {@code /rest/v1/…} to the
 * endpoints; reads run under the store's read lock.
 */
final class HttpFront implements AutoCloseable {

    record Endpoints(TargetEndpoints targets, ActionEndpoints actions, DistributionSetEndpoints sets,
            Assignments assignments, RolloutEndpoints rollouts) {
    }

    private static final String PREFIX = "/rest/v1/";

    private final HttpServer server;
    private final ExecutorService pool;
    private final TargetStore store;
    private final Faults faults;
    private final RequestCounter counter;
    private volatile Endpoints endpoints;
    private volatile JsonViews views;

    HttpFront(int threads, TargetStore store, Faults faults, RequestCounter counter) throws IOException {
        this.store = store;
        this.faults = faults;
        this.counter = counter;
        // without TCP_NODELAY the JDK server's header and body writes meet Nagle + delayed ACK: ~40 ms per answer.
        // The JDK reads this once per JVM, when its first HTTP server starts: too late here if another started before
        // (the service's test JVMs set it at start, service/pom.xml)
        System.setProperty("sun.net.httpserver.nodelay", "true");
        AtomicInteger n = new AtomicInteger();
        pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "scale-hawkbit-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
        server.createContext("/", this::handle);
        server.setExecutor(pool);
    }

    /** {@code http://127.0.0.1:<port>}. */
    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Starts answering (the endpoints need {@link #baseUrl()} for their links, so they come after the server). */
    void start(Endpoints value, JsonViews json) {
        endpoints = value;
        views = json;
        server.start();
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }

    private void handle(HttpExchange ex) throws IOException {
        long start = System.nanoTime();
        Reply reply;
        try (InputStream in = ex.getRequestBody()) {
            byte[] body = in.readAllBytes();
            try {
                faults.checkHeaderSize(ex);
            } catch (HttpError e) {
                counter.count(Op.OTHER);
                throw e;
            }
            reply = route(ex.getRequestMethod(), ex.getRequestURI().getRawPath(), ex.getRequestURI().getRawQuery(),
                    ex.getRequestHeaders().getFirst("Authorization"), body);
            faults.delay();
        } catch (HttpError e) {
            reply = views.error(e.status, e.errorCode, e.getMessage());
        } catch (RuntimeException e) {
            reply = views.error(500, "scale.double.internal", String.valueOf(e));
        }
        try {
            if (reply.body() == null) {
                ex.sendResponseHeaders(reply.status(), -1);
            } else {
                ex.getResponseHeaders().set("Content-Type", "application/hal+json;charset=UTF-8");
                ex.sendResponseHeaders(reply.status(), reply.body().length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(reply.body());
                }
            }
        } finally {
            ex.close();
            counter.handled(System.nanoTime() - start);
        }
    }

    private Reply route(String method, String rawPath, String rawQuery, String authorization, byte[] body) {
        List<String> seg = new ArrayList<>();
        if (rawPath.startsWith(PREFIX)) {
            for (String s : rawPath.substring(PREFIX.length()).split("/", -1)) {
                seg.add(QueryParams.decodePath(s));
            }
        }
        Op op = classify(method, seg);
        counter.count(op);
        if (faults.unavailable()) {
            return views.error(503, "scale.double.unavailable", "hawkBit double is unavailable");
        }
        if (!authenticated(authorization)) {
            return new Reply(401, null);
        }
        Endpoints e = endpoints;
        e.assignments().settle();
        Map<String, String> query = QueryParams.parse(rawQuery);
        switch (op) {
            case TARGETS:
                return read(() -> e.targets().list(query));
            case TARGET:
                return read(() -> e.targets().one(seg.get(1)));
            case ATTRIBUTES:
                return read(() -> e.targets().attributes(seg.get(1)));
            case METADATA:
                return read(() -> e.targets().metadata(seg.get(1), query));
            case INSTALLED_DS:
                return read(() -> e.targets().installed(seg.get(1)));
            case ASSIGNED_DS:
                return read(() -> e.targets().assigned(seg.get(1)));
            case ACTIONS:
                return read(() -> e.actions().list(seg.get(1), query));
            case ACTION:
                return read(() -> e.actions().one(seg.get(1), seg.get(3)));
            case ACTION_STATUS:
                return read(() -> e.actions().status(seg.get(1), seg.get(3), query));
            case DS_GET:
                return read(() -> e.sets().one(seg.get(1)));
            case DS_SEARCH:
                return read(() -> e.sets().search(query));
            case ASSIGN:
                return e.assignments().assign(seg.get(1), body);
            case ACTION_CANCEL:
                return e.rollouts().cancel(seg.get(1), seg.get(3));
            case ROLLOUTS:
                return read(() -> e.rollouts().rollouts(query));
            case ROLLOUT:
                return read(() -> e.rollouts().rollout(seg.get(1)));
            case ROLLOUT_GROUPS:
                return seg.size() == 3 ? read(() -> e.rollouts().groups(seg.get(1), query))
                        : read(() -> e.rollouts().groupTargets(seg.get(1), seg.get(3), query));
            case ROLLOUT_CHANGE:
                return e.rollouts().change(seg.get(1), seg.get(2));
            case TARGET_FILTERS:
                return seg.size() == 1 ? read(() -> e.rollouts().filters(query))
                        : read(() -> e.rollouts().filter(seg.get(1)));
            case AUTO_ASSIGN:
                return "DELETE".equals(method) ? e.rollouts().switchOff(seg.get(1))
                        : e.rollouts().switchOn(seg.get(1), body);
            default:
                return views.error(404, "scale.double.notFound", "no such resource: " + method + " " + rawPath);
        }
    }

    private Reply read(Supplier<Reply> what) {
        return store.read(what);
    }

    private static boolean authenticated(String authorization) {
        return authorization != null && authorization.startsWith("Basic ")
                && new String(Base64.getDecoder().decode(authorization.substring(6)), StandardCharsets.UTF_8)
                        .contains(":");
    }

    static Op classify(String method, List<String> s) {
        boolean get = "GET".equals(method);
        int n = s.size();
        if (n == 0) {
            return Op.OTHER;
        }
        if ("targets".equals(s.get(0)) && get) {
            if (n <= 2) {
                return n == 1 ? Op.TARGETS : Op.TARGET;
            }
            String what = s.get(2);
            if (n == 3) {
                switch (what) {
                    case "attributes":
                        return Op.ATTRIBUTES;
                    case "metadata":
                        return Op.METADATA;
                    case "installedDS":
                        return Op.INSTALLED_DS;
                    case "assignedDS":
                        return Op.ASSIGNED_DS;
                    case "actions":
                        return Op.ACTIONS;
                    default:
                        return Op.OTHER;
                }
            }
            if ("actions".equals(what) && n == 4) {
                return Op.ACTION;
            }
            return "actions".equals(what) && n == 5 && "status".equals(s.get(4)) ? Op.ACTION_STATUS : Op.OTHER;
        }
        if ("targets".equals(s.get(0)) && "DELETE".equals(method) && n == 4 && "actions".equals(s.get(2))) {
            return Op.ACTION_CANCEL;
        }
        if ("rollouts".equals(s.get(0))) {
            if (get) {
                if (n <= 2) {
                    return n == 1 ? Op.ROLLOUTS : Op.ROLLOUT;
                }
                boolean groups = "deploygroups".equals(s.get(2));
                return groups && (n == 3 || n == 5 && "targets".equals(s.get(4))) ? Op.ROLLOUT_GROUPS : Op.OTHER;
            }
            return "POST".equals(method) && n == 3 && Set.of("pause", "resume", "approve", "deny").contains(s.get(2))
                    ? Op.ROLLOUT_CHANGE : Op.OTHER;
        }
        if ("targetfilters".equals(s.get(0))) {
            if (get && n <= 2) {
                return Op.TARGET_FILTERS;
            }
            return n == 3 && "autoAssignDS".equals(s.get(2)) && ("POST".equals(method) || "DELETE".equals(method))
                    ? Op.AUTO_ASSIGN : Op.OTHER;
        }
        if ("distributionsets".equals(s.get(0))) {
            if (n == 1 && get) {
                return Op.DS_SEARCH;
            }
            if (n == 2 && get) {
                return Op.DS_GET;
            }
            if (n == 3 && "assignedTargets".equals(s.get(2)) && "POST".equals(method)) {
                return Op.ASSIGN;
            }
        }
        return Op.OTHER;
    }
}
