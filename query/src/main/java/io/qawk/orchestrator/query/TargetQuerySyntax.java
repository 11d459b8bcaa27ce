package io.qawk.orchestrator.query;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Checks that a hawkBit target query (FIQL/RSQL) is well formed and names only target fields hawkBit knows,
 * before it is stored, so an operator learns at once where a query is wrong instead of from a failing sync.
 *
 * <p>The grammar is {@link Rsql}'s; on top of it: the query is required and at most {@link #MAX_LENGTH} characters,
 * a selector is one of {@link #FIELDS} or {@code attribute.<key>} / {@code metadata.<key>}, and {@code =in=} /
 * {@code =out=} take their values in parentheses.
 */
public final class TargetQuerySyntax {

    /** Fields hawkBit accepts in target queries across versions (0.3.x … 1.x), lower case. */
    static final Set<String> FIELDS = Set.of("id", "controllerid", "name", "description", "updatestatus",
            "ipaddress", "address", "tag", "installedds.name", "installedds.version", "assignedds.name",
            "assignedds.version", "lastcontrollerrequestat", "lastmodifiedat", "createdat", "targettype",
            "targettype.key", "targettype.name", "group", "type");
    static final int MAX_LENGTH = 2000;

    private static final Rsql.Checks TARGET_RULES = new Rsql.Checks() {
        @Override
        public void selector(String selector, int index) {
            checkField(selector, index);
        }

        @Override
        public void argument(String operator, boolean list, int index) {
            if (!list && (operator.equals("=in=") || operator.equals("=out="))) {
                throw Rsql.SyntaxException.at(operator + " needs a list of values in parentheses", index);
            }
        }
    };

    private TargetQuerySyntax() {
    }

    /** Returns what is wrong with the query and where, or empty when it is valid. */
    public static Optional<String> problem(String query) {
        if (query == null || query.isBlank()) {
            return Optional.of("is required");
        }
        if (query.length() > MAX_LENGTH) {
            return Optional.of("must be at most " + MAX_LENGTH + " characters");
        }
        try {
            Rsql.parse(query, TARGET_RULES);
            return Optional.empty();
        } catch (Rsql.SyntaxException e) {
            return Optional.of(e.getMessage());
        }
    }

    private static void checkField(String selector, int start) {
        String lower = selector.toLowerCase(Locale.ROOT);
        if (lower.startsWith("attribute.") || lower.startsWith("metadata.")) {
            String key = selector.substring(selector.indexOf('.') + 1);
            if (key.isEmpty()) {
                throw new Rsql.SyntaxException("'" + selector + "' at position " + (start + 1)
                        + " needs a key after the dot");
            }
            return;
        }
        if (!FIELDS.contains(lower)) {
            throw new Rsql.SyntaxException("unknown field '" + selector + "' at position " + (start + 1)
                    + "; use attribute.<key>, metadata.<key>, controllerId, name, updateStatus, tag, "
                    + "installedDS.name|version, assignedDS.name|version, lastControllerRequestAt, createdAt");
        }
    }
}
