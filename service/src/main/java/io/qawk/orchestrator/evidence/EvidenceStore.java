package io.qawk.orchestrator.evidence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qawk.orchestrator.common.ConflictException;
import io.qawk.orchestrator.common.NotFoundException;
import io.qawk.orchestrator.deployment.model.DeploymentPhase;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Seals a deployment's evidence record when it ends and keeps it: the canonical text ({@link Canonical}) and its
 * SHA-256, one row per end ({@code deployment_evidence}), never updated. A deployment taken again and ended again gets a
 * new record; the one served is the record of its latest end.
 */
@ApplicationScoped
public class EvidenceStore {

    @Inject
    EvidenceBuilder builder;

    @Inject
    DataSource dataSource;

    @Inject
    ObjectMapper json;

    @Inject
    Clock clock;

    /** A record as stored: its canonical text and the digest taken when it was sealed. */
    public record Stored(long deploymentId, Instant endedAt, Instant sealedAt, String text, String digest) {
    }

    /**
     * Seals the record of deployment {@code id} if it has ended and its end has none yet; two replicas sealing at once
     * keep the first. Its own transaction.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void seal(long id) {
        SystemDeployment d = SystemDeployment.findById(id);
        if (d == null || !d.phase.ended() || d.endedAt == null || find(id, d.endedAt).isPresent()) {
            return;
        }
        Instant now = clock.instant();
        String text = Canonical.text(builder.build(d, now));
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("insert into deployment_evidence (deployment_id, ended_at,"
                     + " sealed_at, record, digest) values (?, ?, ?, ?, ?) on conflict do nothing")) {
            ps.setLong(1, id);
            ps.setTimestamp(2, Timestamp.from(d.endedAt));
            ps.setTimestamp(3, Timestamp.from(now));
            ps.setString(4, text);
            ps.setString(5, Canonical.sha256(text));
            ps.executeUpdate();
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

    /** The record rebuilt from the deployment's rows as they are now (to compare with the stored one). */
    @Transactional
    public ObjectNode rebuilt(long id, Instant sealedAt) {
        return builder.build(ended(id), sealedAt);
    }

    /** The stored text, read back as JSON. */
    public ObjectNode parse(Stored s) {
        try {
            JsonNode n = json.readTree(s.text());
            if (n instanceof ObjectNode o) {
                return o;
            }
        } catch (JsonProcessingException e) {
            // said below
        }
        // an edit that broke the JSON: the record is answered as text, verify says it does not match
        ObjectNode broken = json.createObjectNode();
        broken.put("unreadable", s.text());
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
             PreparedStatement ps = c.prepareStatement("select sealed_at, record, digest from deployment_evidence"
                     + " where deployment_id = ? and ended_at = ?")) {
            ps.setLong(1, id);
            ps.setTimestamp(2, Timestamp.from(endedAt));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new Stored(id, endedAt, rs.getTimestamp(1).toInstant(), rs.getString(2),
                        rs.getString(3))) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the evidence record of deployment " + id, e);
        }
    }
}
