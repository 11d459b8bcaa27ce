package io.qawk.orchestrator.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qawk.orchestrator.common.Actors;
import io.qawk.orchestrator.common.AuditNote;
import io.quarkus.runtime.BlockingOperationControl;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * Records every command the API carried out (a write answered 2xx) in the audit listing, with who gave it: the
 * signed-in user (the token's user name, or the basic-auth user). The commands' own records (a timeline entry's
 * actor, a deployment's {@code startedBy}, a release's {@code createdBy}) are written with the command; this entry
 * comes right after its commit, in a transaction of its own, so nothing in the domain packages has to know it. A
 * failure to write it is logged, never turned into a failure of the command that succeeded.
 */
public class AuditRecorder {

    private static final Logger LOG = Logger.getLogger(AuditRecorder.class);

    @Inject
    AuditLog log;

    @Inject
    SecurityIdentity identity;

    @Inject
    Clock clock;

    /** An approval's comment and the like, said beside the command. */
    @Inject
    AuditNote note;

    @Inject
    ObjectMapper json;

    @ServerResponseFilter
    public void record(ContainerRequestContext request, ContainerResponseContext response) {
        int status = response.getStatus();
        if (status < 200 || status >= 300) {
            return;
        }
        String method = request.getMethod();
        String path = request.getUriInfo().getRequestUri().getRawPath();
        Optional<AuditCommand> command = AuditCommand.of(method, path, method.equals("POST") ? createdId(response) : null);
        if (command.isEmpty()) {
            return;
        }
        String actor = Actors.of(identity);
        Instant at = clock.instant();
        String detail = note.detail();
        Runnable write = () -> {
            try {
                log.recordCommand(at, actor, command.get(), method, path, status, detail);
            } catch (RuntimeException e) {
                LOG.errorf(e, "could not record %s %s by %s in the audit listing", method, path, actor);
            }
        };
        if (BlockingOperationControl.isBlockingAllowed()) {
            write.run();
        } else {
            Infrastructure.getDefaultWorkerPool().execute(write);
        }
    }

    /** The id of the object a POST created: the last segment of its {@code Location}, else its body's {@code id}. */
    private Long createdId(ContainerResponseContext response) {
        if (response.getStatus() != 201) {
            return null;
        }
        String location = response.getHeaderString("Location");
        if (location != null) {
            String last = location.substring(location.lastIndexOf('/') + 1);
            if (!last.isEmpty() && last.chars().allMatch(Character::isDigit)) {
                return Long.parseLong(last);
            }
        }
        Object entity = response.getEntity();
        if (entity == null || entity instanceof String) {
            return null;
        }
        try {
            JsonNode id = json.valueToTree(entity).path("id");
            return id.canConvertToLong() ? id.asLong() : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
