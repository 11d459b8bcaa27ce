package io.qawk.orchestrator.testkit.scale;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import io.qawk.orchestrator.query.Rsql;

/** The request parameters hawkBit's list endpoints share ({@code q}, {@code offset}, {@code limit}) and URL coding. */
final class QueryParams {

    private QueryParams() {
    }

    /** {@code q} as a tree, or null when absent; a query hawkBit refuses answers 400. */
    static Rsql.Node filter(Map<String, String> query, Set<String> allowed, String what) {
        String q = query.get("q");
        if (q == null || q.isBlank()) {
            return null;
        }
        Rsql.Node node;
        try {
            node = RsqlEvaluator.parse(q);
        } catch (RsqlEvaluator.BadQuery e) {
            throw HttpError.badRequest("hawkbit.server.error.rest.param.rsqlSearchSyntax", e.getMessage());
        }
        checkFields(node, allowed, what);
        return node;
    }

    private static void checkFields(Rsql.Node node, Set<String> allowed, String what) {
        for (Rsql.Comparison c : Rsql.comparisons(node)) {
            String f = RsqlEvaluator.normalise(c.selector());
            int dot = f.indexOf('.');
            String head = dot < 0 ? f : f.substring(0, dot);
            boolean ok = allowed.contains(f)
                    || (head.equals("attribute") || head.equals("metadata")) && allowed.contains(head) && dot > 0;
            if (!ok) {
                throw HttpError.badRequest("hawkbit.server.error.rest.param.rsqlInvalidField",
                        "The given search parameter field {" + c.selector() + "} does not exist, must be one of the"
                                + " following fields " + allowed + " (" + what + ")");
            }
        }
    }

    static int offset(Map<String, String> query) {
        String v = query.get("offset");
        if (v == null) {
            return 0;
        }
        try {
            return Math.max(0, Integer.parseInt(v.trim()));
        } catch (NumberFormatException e) {
            throw HttpError.badRequest("hawkbit.server.error.rest.param.typeMismatch", "offset: " + v);
        }
    }

    /** hawkBit: default 50, below 1 → the default, above 500 → 500 (silently). */
    static int limit(Map<String, String> query) {
        String v = query.get("limit");
        if (v == null) {
            return 50;
        }
        int n;
        try {
            n = Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw HttpError.badRequest("hawkbit.server.error.rest.param.typeMismatch", "limit: " + v);
        }
        return n < 1 ? 50 : Math.min(n, ScaleHawkbit.MAX_PAGE);
    }

    static Map<String, String> parse(String raw) {
        if (raw == null || raw.isEmpty()) {
            return Map.of();
        }
        Map<String, String> out = new HashMap<>();
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = eq < 0 ? pair : pair.substring(0, eq);
            String v = eq < 0 ? "" : pair.substring(eq + 1);
            out.putIfAbsent(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
        }
        return out;
    }

    /** Percent-decoding of a path segment ('+' stays '+'). */
    static String decodePath(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
