package io.qawk.orchestrator.audit;

import io.quarkus.hibernate.orm.panache.PanacheQuery;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.time.Instant;
import java.util.List;

/** Writes and reads the audit listing. */
@ApplicationScoped
public class AuditLog {

    /** Stores one entry in a transaction of its own: the command it records has committed already. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void record(Instant at, String actor, AuditCommand command, String method, String path, int status) {
        record(at, actor, command, method, path, status, null);
    }

    /** The same with what the command said beside it ({@code detail}: an approval's comment; null for none). */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void recordCommand(Instant at, String actor, AuditCommand command, String method, String path, int status,
                              String detail) {
        record(at, actor, command, method, path, status, detail);
    }

    /**
     * Stores what the service did on its own in the caller's transaction (or one of its own when there is none),
     * with why: the guard's hold of a rollout is written with the hold.
     */
    @Transactional
    public void recordOwn(Instant at, String actor, AuditCommand command, String method, String path, int status,
                          String detail) {
        record(at, actor, command, method, path, status, detail);
    }

    private void record(Instant at, String actor, AuditCommand command, String method, String path, int status,
                        String detail) {
        AuditEntry e = new AuditEntry();
        e.detail = detail;
        e.at = at;
        e.actor = actor;
        e.action = command.action();
        e.target = truncate(command.target(), 512);
        e.method = method;
        e.path = truncate(path, 1024);
        e.status = status;
        e.persist();
    }

    /** The entries at or after {@code since} (all when null) by {@code actor} (anyone when null), oldest first. */
    @Transactional
    public Page<AuditEntry> page(Instant since, String actor, int offset, int limit) {
        StringBuilder where = new StringBuilder("1 = 1");
        Parameters p = new Parameters();
        if (since != null) {
            where.append(" and at >= :since");
            p.and("since", since);
        }
        if (actor != null) {
            where.append(" and actor = :actor");
            p.and("actor", actor);
        }
        PanacheQuery<AuditEntry> q = AuditEntry.find(where.toString(), Sort.by("at").and("id"), p);
        List<AuditEntry> content = q.range(offset, offset + limit - 1).list();
        return new Page<>(q.count(), content);
    }

    /** A page of entries and how many match in all. */
    public record Page<T>(long total, List<T> content) {
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }
}
