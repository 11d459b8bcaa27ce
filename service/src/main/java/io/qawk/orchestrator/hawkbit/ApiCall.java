package io.qawk.orchestrator.hawkbit;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import java.lang.annotation.Annotation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One request to hawkBit as data, before it is sent: the {@link HawkbitApi} method a caller's lambda calls, with its
 * arguments, and what the request is: its HTTP method, its kind (a GET reads, anything else writes, as hawkBit's DoS
 * filter counts them) and its API path family ({@code targets}, {@code actions}, {@code distributionsets},
 * {@code rollouts}, {@code targetfilters}, {@code autoassignments}, {@code system}) — a bounded set read from the
 * annotations of {@link HawkbitApi}, never an id.
 * <p>
 * Knowing what a request is before it is sent lets {@link HawkbitClient} wait for the kind's turn in the
 * {@link RequestBudget} first, and count the request by kind, method and family whatever becomes of it.
 */
final class ApiCall {

    /** Reads (GET) and writes (every other method): what hawkBit's DoS filter and the budget count apart. */
    enum Kind {
        READ, WRITE;

        /** The metric's label value. */
        String label() {
            return this == READ ? "read" : "write";
        }
    }

    /** What an endpoint of {@link HawkbitApi} is. */
    record Endpoint(String method, String family, Kind kind) {
    }

    private static final Map<Method, Endpoint> ENDPOINTS = endpoints();

    private final Method method;
    private final Object[] args;
    private final Endpoint endpoint;

    private ApiCall(Method method, Object[] args) {
        this.method = method;
        this.args = args;
        this.endpoint = ENDPOINTS.get(method);
    }

    /** The one {@link HawkbitApi} call {@code request} makes, recorded without sending anything. */
    static ApiCall of(Function<HawkbitApi, Response> request) {
        List<ApiCall> made = new ArrayList<>(1);
        HawkbitApi recorder = (HawkbitApi) Proxy.newProxyInstance(HawkbitApi.class.getClassLoader(),
                new Class<?>[] {HawkbitApi.class}, (proxy, m, a) -> {
                    if (m.getDeclaringClass() == Object.class) {
                        return m.getName().equals("equals") ? proxy == a[0]
                                : m.getName().equals("hashCode") ? System.identityHashCode(proxy) : "ApiCall recorder";
                    }
                    made.add(new ApiCall(m, a == null ? new Object[0] : a));
                    return null;
                });
        request.apply(recorder);
        if (made.size() != 1) {
            throw new IllegalStateException("a request to hawkBit must call one HawkbitApi method, not " + made.size());
        }
        return made.get(0);
    }

    Kind kind() {
        return endpoint.kind();
    }

    String method() {
        return endpoint.method();
    }

    String family() {
        return endpoint.family();
    }

    /** Sends the request through {@code api}; what the REST client throws comes out as it is. */
    Response send(HawkbitApi api) {
        try {
            return (Response) method.invoke(api, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every endpoint of {@link HawkbitApi}, by its method. */
    static Map<Method, Endpoint> endpoints() {
        Map<Method, Endpoint> out = new HashMap<>();
        for (Method m : HawkbitApi.class.getDeclaredMethods()) {
            String verb = verb(m);
            Path path = m.getAnnotation(Path.class);
            if (verb == null || path == null) {
                continue;
            }
            out.put(m, new Endpoint(verb, family(path.value()), HttpMethod.GET.equals(verb) ? Kind.READ
                    : Kind.WRITE));
        }
        return Collections.unmodifiableMap(out);
    }

    /** The family of a path: {@code actions} for a target's actions, else its first segment. */
    static String family(String path) {
        String first = null;
        for (String segment : path.split("/")) {
            if (segment.isEmpty() || segment.startsWith("{")) {
                continue;
            }
            if (segment.equals("actions")) {
                return "actions";
            }
            if (first == null) {
                first = segment;
            }
        }
        return first == null ? "root" : first;
    }

    private static String verb(Method m) {
        for (Annotation a : m.getAnnotations()) {
            HttpMethod http = a.annotationType().getAnnotation(HttpMethod.class);
            if (http != null) {
                return http.value();
            }
        }
        return null;
    }
}
