package io.qawk.orchestrator.audit;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a request to the API did, read from its method and path as the API names things: {@code POST
 * /qawk/v1/systemdeployments/51/runs/700/rollback} is the action {@code rollback} on {@code systemdeployments/51/runs/700};
 * a {@code POST} to a collection creates ({@code create}, the target completed with the new object's id), {@code PUT}
 * and {@code PATCH} update, {@code DELETE} deletes. Reads and previews ({@code …/plan}) are no commands. Pure.
 */
public record AuditCommand(String action, String target) {

    static final String PREFIX = "/qawk/v1/";
    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");
    /** Requests that change nothing though they are POSTs. */
    private static final Set<String> PREVIEWS = Set.of("plan");

    /** The command of this request, or empty when it is none (a read, a preview, outside the API). */
    public static Optional<AuditCommand> of(String method, String path, Long createdId) {
        if (method == null || path == null || !WRITES.contains(method) || !path.startsWith(PREFIX)) {
            return Optional.empty();
        }
        List<String> segments = Arrays.stream(path.substring(PREFIX.length()).split("/"))
                .filter(s -> !s.isEmpty()).toList();
        if (segments.isEmpty()) {
            return Optional.empty();
        }
        String last = segments.get(segments.size() - 1);
        if (PREVIEWS.contains(last)) {
            return Optional.empty();
        }
        boolean verb = method.equals("POST") && segments.size() > 1 && !isId(last);
        if (verb) {
            return Optional.of(new AuditCommand(last, String.join("/", segments.subList(0, segments.size() - 1))));
        }
        String target = String.join("/", segments);
        return switch (method) {
            case "POST" -> Optional.of(new AuditCommand("create", createdId == null ? target : target + "/" + createdId));
            case "DELETE" -> Optional.of(new AuditCommand("delete", target));
            default -> Optional.of(new AuditCommand("update", target));
        };
    }

    private static boolean isId(String segment) {
        return segment.chars().allMatch(Character::isDigit);
    }
}
