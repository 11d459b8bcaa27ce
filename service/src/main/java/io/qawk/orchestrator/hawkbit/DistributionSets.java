package io.qawk.orchestrator.hawkbit;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Distribution sets by id (remembered a minute), by name and version, the newest of a name ({@link HawkbitGateway}). */
final class DistributionSets {

    private final HawkbitClient client;
    private final Map<Long, Remembered> knownSets = new ConcurrentHashMap<>();

    DistributionSets(HawkbitClient client) {
        this.client = client;
    }

    /** The set with this id, read now; empty when hawkBit has none (404). What it reads is remembered as {@link #known}. */
    Optional<DistributionSetRef> byId(long id) {
        long now = System.nanoTime();
        HawkbitClient.Reply reply = client.call("distribution_set", api -> api.distributionSet(id));
        if (reply.status() == 404) {
            knownSets.remove(id);
            return Optional.empty();
        }
        if (reply.isSuccess() && !reply.hasBody()) {
            throw HawkbitClient.malformed("distribution_set", "empty answer");
        }
        Optional<DistributionSetRef> set = read(client, "distribution_set", reply, null);
        set.ifPresent(s -> knownSets.put(id, new Remembered(s, now + REMEMBERED_NANOS)));
        return set;
    }

    /** How long a set read by id is remembered. */
    private static final long REMEMBERED_NANOS = 60_000_000_000L;

    private record Remembered(DistributionSetRef set, long until) {
    }

    /**
     * {@link #byId(long)}, remembered for a minute: the engine needs a set's name and version in every pass
     * and every pass is a round trip to a hawkBit that may be busy with thousands of polling devices. A deleted set is
     * noticed within that minute (an absent set is never remembered).
     */
    Optional<DistributionSetRef> known(long id) {
        Remembered r = knownSets.get(id);
        if (r != null && r.until() - System.nanoTime() > 0) {
            return Optional.of(r.set());
        }
        return byId(id);
    }

    /**
     * The set to assign: {@link #known}, read again when remembered as incomplete (it may have been completed since).
     * A set deleted within the minute is still refused, by hawkBit's own answer to the assignment.
     */
    Optional<DistributionSetRef> toAssign(long id) {
        Optional<DistributionSetRef> set = known(id);
        return set.isPresent() && !set.get().complete() ? byId(id) : set;
    }

    /** The set with exactly this name and version; empty when none. */
    Optional<DistributionSetRef> byNameAndVersion(String name, String version) {
        return findSets(Fiql.and(Fiql.eq("name", name), Fiql.eq("version", version)), null).stream()
                .filter(ds -> ds.name().equals(name) && ds.version().equals(version))
                .findFirst();
    }

    /** The newest set (highest id) with exactly this name; empty when none. */
    Optional<DistributionSetRef> newest(String name) {
        return findSets(Fiql.eq("name", name), "id:DESC").stream().filter(ds -> ds.name().equals(name)).findFirst();
    }

    /** {@code name:version} (split at the first ':') or {@code name} alone (= its newest set). */
    Optional<DistributionSetRef> resolve(String artifact) {
        if (artifact == null || artifact.isBlank()) {
            throw new IllegalArgumentException("artifact name is empty");
        }
        String trimmed = artifact.strip();
        int colon = trimmed.indexOf(':');
        if (colon < 0 || colon == trimmed.length() - 1) {
            return newest(colon < 0 ? trimmed : trimmed.substring(0, colon));
        }
        return byNameAndVersion(trimmed.substring(0, colon), trimmed.substring(colon + 1));
    }

    /**
     * One page of sets whose name contains {@code nameContains} (any set when null), sorted by name, newest first
     * within a name; with how many match in all.
     */
    DistributionSetPage search(String nameContains, int limit) {
        String operation = "distribution_set";
        String fiql = nameContains == null ? null : Fiql.like("name", "*" + nameContains + "*");
        JsonNode root = client.okJson(operation,
                client.call(operation, api -> api.distributionSets(0, limit, "name:ASC,id:DESC", fiql)), null);
        List<DistributionSetRef> sets = content(operation, root);
        JsonNode total = root.path("total");
        return new DistributionSetPage(total.canConvertToLong() ? total.asLong() : sets.size(), sets);
    }

    private List<DistributionSetRef> findSets(String fiql, String sort) {
        String operation = "distribution_set";
        int limit = client.pageLimit();
        JsonNode root = client.okJson(operation,
                client.call(operation, api -> api.distributionSets(0, limit, sort, fiql)), null);
        return content(operation, root);
    }

    private List<DistributionSetRef> content(String operation, JsonNode root) {
        List<DistributionSetRef> sets = new ArrayList<>();
        JsonNode content = root.isArray() ? root : root.path("content");
        if (!content.isMissingNode() && !content.isNull() && !content.isArray()) {
            throw HawkbitClient.malformed(operation, "content is not a list");
        }
        for (JsonNode node : content) {
            sets.add(ref(operation, client.read(operation, node, HawkbitShapes.DistributionSet.class)));
        }
        return sets;
    }

    /** A set answer (or 204/no body = empty) as Qawk's type; {@code controllerId}: a 404 means that target. */
    static Optional<DistributionSetRef> read(HawkbitClient client, String operation, HawkbitClient.Reply reply,
            String controllerId) {
        return client.optional(operation, reply, controllerId, HawkbitShapes.DistributionSet.class)
                .map(s -> ref(operation, s));
    }

    static DistributionSetRef ref(String operation, HawkbitShapes.DistributionSet s) {
        if (s.id() == null || s.name() == null || s.version() == null) {
            throw HawkbitClient.malformed(operation, "distribution set without id, name or version");
        }
        // every hawkBit version sends "complete"; if one did not, hawkBit itself still refuses incomplete sets
        return new DistributionSetRef(s.id(), s.name(), s.version(), s.complete() == null || s.complete());
    }
}
