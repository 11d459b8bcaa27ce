package io.qawk.orchestrator.evidence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qawk.orchestrator.common.ConflictException;
import io.qawk.orchestrator.common.NotFoundException;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.quarkus.narayana.jta.runtime.TransactionConfiguration;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Seals a deployment's evidence record when it ends and keeps it, one record per end, never updated: its head (the
 * record without {@code systems}, {@code deployment_evidence}), each system's canonical text in the record's order
 * ({@code deployment_evidence_system}), and the SHA-256 of the whole record's canonical text ({@link Canonical}).
 * Sealed, read and verified system by system, so that a deployment of any size fits in memory; records sealed before
 * that ({@code systems_apart} false) hold the whole text in their head and are read as they were. A deployment taken
 * again and ended again gets a new record; the one served is the record of its latest end.
 * <p>
 * One class: sealing, reading and verifying share the stored layout (systems apart, or whole in records sealed
 * before), which is read back exactly as it is written.
 */
@ApplicationScoped
public class EvidenceStore {

    /**
     * The Postgres advisory lock (namespace, deployment id) a seal takes for its transaction: two replicas sealing one
     * end write it once. (Qawk's other namespaces: {@code EngineLock}, channels and the inventory, 0x51415757–5A.)
     */
    static final int LOCK_NAMESPACE = 0x5141575B;
    /** System rows written, or read, at once. */
    static final int BATCH = 500;
    /**
     * The transaction timeout of a seal and of verify's rebuild: 25,000 systems took 13 s and 6 s on 2 cores
     * (docs/benchmarks.md), so the default 60 s would stop a deployment a few times that size, at every sweep again.
     */
    static final int TIMEOUT_SECONDS = 600;
    private static final Logger LOG = Logger.getLogger(EvidenceStore.class);

    @Inject
    EvidenceBuilder builder;

    @Inject
    DataSource dataSource;

    @Inject
    ObjectMapper json;

    @Inject
    Clock clock;

    /**
     * A record as stored: its head's canonical text and the digest taken when it was sealed. {@code systemsApart}: its
     * systems are rows of their own; else {@code head} is the whole record (sealed before records were stored system
     * by system).
     */
    public record Stored(long deploymentId, Instant endedAt, Instant sealedAt, String head, String digest,
                         boolean systemsApart) {
    }

    /**
     * Seals the record of deployment {@code id} if it has ended and its end has none yet; two replicas sealing at once
     * keep the first. Its own transaction: the systems' rows, then the head with the digest over all of them.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    @TransactionConfiguration(timeout = TIMEOUT_SECONDS)
    public void seal(long id) {
        SystemDeployment d = SystemDeployment.findById(id);
        if (d == null || !d.phase.ended() || d.endedAt == null) {
            return;
        }
        Instant endedAt = d.endedAt;
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement lock = c.prepareStatement("select pg_advisory_xact_lock(?, ?)")) {
                lock.setInt(1, LOCK_NAMESPACE);
                lock.setInt(2, Long.hashCode(id));
                lock.execute();
            }
            if (find(id, endedAt).isPresent()) {
                return;
            }
            long start = System.nanoTime();
            Instant now = clock.instant();
            EvidenceBuilder.Head head = builder.head(d, now);
            String headText = Canonical.head(head.node());
            Canonical.Digest digest = new Canonical.Digest(headText);
            int[] position = {0};
            try (PreparedStatement ps = c.prepareStatement("insert into deployment_evidence_system (deployment_id,"
                    + " ended_at, position, record) values (?, ?, ?, ?)")) {
                builder.systems(builder.runIds(d), head.type(), system -> {
                    String text = Canonical.text(system);
                    digest.system(text);
                    addSystem(ps, id, endedAt, position[0]++, text);
                });
                ps.executeBatch();
            }
            try (PreparedStatement ps = c.prepareStatement("insert into deployment_evidence (deployment_id, ended_at,"
                    + " sealed_at, record, digest, systems_apart) values (?, ?, ?, ?, ?, true) on conflict do nothing")) {
                ps.setLong(1, id);
                ps.setTimestamp(2, Timestamp.from(endedAt));
                ps.setTimestamp(3, Timestamp.from(now));
                ps.setString(4, headText);
                ps.setString(5, digest.hex());
                ps.executeUpdate();
            }
            LOG.infof("Sealed the evidence record of deployment %d: %,d systems in %d ms", id, position[0],
                    (System.nanoTime() - start) / 1_000_000);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not store the evidence record of deployment " + id, e);
        }
    }

    private static void addSystem(PreparedStatement ps, long id, Instant endedAt, int position, String text) {
        try {
            ps.setLong(1, id);
            ps.setTimestamp(2, Timestamp.from(endedAt));
            ps.setInt(3, position);
            ps.setString(4, text);
            ps.addBatch();
            if ((position + 1) % BATCH == 0) {
                ps.executeBatch();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not store the evidence record of deployment " + id, e);
        }
    }

    /** The ended deployments whose latest end has no record yet (a crash between the end and the seal). */
    @Transactional
    public List<Long> unsealed() {
        List<Long> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("select d.id from system_deployment d where d.phase in (?, ?, ?)"
                     + " and d.ended_at is not null and not exists (select 1 from deployment_evidence e"
                     + " where e.deployment_id = d.id and e.ended_at = d.ended_at) order by d.id limit 100")) {
            ps.setString(1, DeploymentPhase.FINISHED.name());
            ps.setString(2, DeploymentPhase.FAILED.name());
            ps.setString(3, DeploymentPhase.ABORTED.name());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getLong(1));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not list the deployments to seal", e);
        }
        return out;
    }

    /** The stored head, read back as JSON, without {@code systems} (a record sealed whole has them in its head). */
    public ObjectNode head(Stored s) {
        ObjectNode head = parse(s.head());
        head.remove(Canonical.SYSTEMS);
        return head;
    }

    /** How many systems the stored record has. */
    public int systemCount(Stored s) {
        if (!s.systemsApart()) {
            return parse(s.head()).path(Canonical.SYSTEMS).size();
        }
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("select count(*) from deployment_evidence_system"
                     + " where deployment_id = ? and ended_at = ?")) {
            ps.setLong(1, s.deploymentId());
            ps.setTimestamp(2, Timestamp.from(s.endedAt()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the evidence record of deployment " + s.deploymentId(), e);
        }
    }

    /** The stored record's systems, each its canonical text as stored, in order, read {@value #BATCH} at a time. */
    public Iterator<String> systems(Stored s) {
        if (!s.systemsApart()) {
            List<String> texts = new ArrayList<>();
            parse(s.head()).path(Canonical.SYSTEMS).forEach(system -> texts.add(Canonical.text(system)));
            return texts.iterator();
        }
        return new StoredSystems(s);
    }

    /** The SHA-256 of the stored record as it is now: equal to its digest while nobody edited it. */
    public String recomputedDigest(Stored s) {
        if (!s.systemsApart()) {
            return Canonical.sha256(s.head());
        }
        Canonical.Digest digest = new Canonical.Digest(s.head());
        systems(s).forEachRemaining(digest::system);
        return digest.hex();
    }

    /**
     * Where the deployment's rows, rebuilt into a record now, differ from the stored record ({@link RecordDifferences},
     * the parts of their moment left out): the head, then system by system.
     */
    @Transactional
    @TransactionConfiguration(timeout = TIMEOUT_SECONDS)
    public List<String> differences(long id, Stored s) {
        SystemDeployment d = ended(id);
        EvidenceBuilder.Head now = builder.head(d, s.sealedAt());
        List<String> out = new ArrayList<>();
        RecordDifferences.into("", head(s), now.node(), out);
        int recorded = systemCount(s);
        List<Long> runIds = builder.runIds(d);
        if (recorded != runIds.size()) {
            out.add(Canonical.SYSTEMS + ": recorded " + recorded + " entries, now " + runIds.size());
            return out;
        }
        Iterator<String> stored = systems(s);
        int[] position = {0};
        builder.systems(runIds, now.type(), system -> RecordDifferences.into(
                Canonical.SYSTEMS + "[" + position[0]++ + "]", parse(stored.next()), system, out));
        return out;
    }

    /** Stored JSON text as an object; an edit that broke the JSON is answered as text, and verify says it differs. */
    public ObjectNode parse(String text) {
        try {
            JsonNode n = json.readTree(text);
            if (n instanceof ObjectNode o) {
                return o;
            }
        } catch (JsonProcessingException e) {
            // said below
        }
        ObjectNode broken = json.createObjectNode();
        broken.put("unreadable", text);
        return broken;
    }

    /** The deployment, ended: 404 when there is no such deployment, 409 while it has not ended. */
    @Transactional
    public SystemDeployment ended(long id) {
        SystemDeployment d = SystemDeployment.findById(id);
        if (d == null) {
            throw new NotFoundException("system deployment", id);
        }
        if (!d.phase.ended() || d.endedAt == null) {
            throw new ConflictException("deployment " + id + " is " + d.phase + " and has not ended; its evidence record"
                    + " is sealed when it ends (FINISHED, FAILED or ABORTED)");
        }
        return d;
    }

    /** The record of the deployment's end at {@code endedAt}, if sealed. */
    public Optional<Stored> find(long id, Instant endedAt) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("select sealed_at, record, digest, systems_apart"
                     + " from deployment_evidence where deployment_id = ? and ended_at = ?")) {
            ps.setLong(1, id);
            ps.setTimestamp(2, Timestamp.from(endedAt));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new Stored(id, endedAt, rs.getTimestamp(1).toInstant(), rs.getString(2),
                        rs.getString(3), rs.getBoolean(4))) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the evidence record of deployment " + id, e);
        }
    }

    /** The systems of a record sealed system by system, read {@value #BATCH} at a time by position. */
    private final class StoredSystems implements Iterator<String> {
        private final Stored record;
        private final ArrayDeque<String> page = new ArrayDeque<>();
        private int from;
        private boolean allRead;

        StoredSystems(Stored record) {
            this.record = record;
        }

        @Override
        public boolean hasNext() {
            if (page.isEmpty() && !allRead) {
                readPage();
            }
            return !page.isEmpty();
        }

        @Override
        public String next() {
            if (!hasNext()) {
                throw new NoSuchElementException("the evidence record of deployment " + record.deploymentId()
                        + " has no system at position " + from);
            }
            return page.poll();
        }

        private void readPage() {
            try (Connection c = dataSource.getConnection();
                 PreparedStatement ps = c.prepareStatement("select position, record from deployment_evidence_system"
                         + " where deployment_id = ? and ended_at = ? and position >= ? order by position limit ?")) {
                ps.setLong(1, record.deploymentId());
                ps.setTimestamp(2, Timestamp.from(record.endedAt()));
                ps.setInt(3, from);
                ps.setInt(4, BATCH);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        page.add(rs.getString(2));
                        from = rs.getInt(1) + 1;
                    }
                }
                allRead = page.size() < BATCH; // a short page is the last
            } catch (SQLException e) {
                throw new IllegalStateException("Could not read the evidence record of deployment "
                        + record.deploymentId(), e);
            }
        }
    }
}
