package io.qawk.orchestrator.deployment.api;

import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.media.Content;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qawk.orchestrator.common.Actors;
import io.qawk.orchestrator.common.AuditNote;
import io.qawk.orchestrator.common.RefusedException;
import io.qawk.orchestrator.common.Updates;
import io.qawk.orchestrator.common.NotFoundException;
import io.qawk.orchestrator.deployment.CommandRequest;
import io.qawk.orchestrator.deployment.DeploymentApprovals;
import io.qawk.orchestrator.deployment.DeploymentCommands;
import io.qawk.orchestrator.deployment.DeploymentReads;
import io.qawk.orchestrator.deployment.DivergenceCommands;
import io.qawk.orchestrator.deployment.DeploymentRequest;
import io.qawk.orchestrator.deployment.DeploymentService;
import io.qawk.orchestrator.deployment.PlanReads;
import io.qawk.orchestrator.deployment.model.DeploymentEvent;
import io.qawk.orchestrator.deployment.model.RunDevice;
import io.qawk.orchestrator.deployment.model.RunEvent;
import io.qawk.orchestrator.deployment.model.RunEventKind;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import io.qawk.orchestrator.window.CentreWindows;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** System deployments: create a draft, start it, steer it, and read how every system went. */
@Path("/qawk/v1/systemdeployments")
@Produces(MediaType.APPLICATION_JSON)
public class DeploymentResource {

    @Inject
    DivergenceCommands divergences;

    @Inject
    DeploymentService service;

    @Inject
    DeploymentCommands commands;

    @Inject
    DeploymentApprovals approvals;

    @Inject
    PlanReads plans;

    @Inject
    DeploymentPreview preview;

    @Inject
    DeploymentReads reads;

    @Inject
    SecurityIdentity identity;

    @Inject
    Clock clock;

    @Inject
    AuditNote note;

    @Inject
    ObjectMapper json;

    @GET
    public List<DeploymentView> list() {
        return reads.list().stream().map(this::view).toList();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(DeploymentRequest request, @Context UriInfo uri) {
        SystemDeployment d = service.create(request, actor());
        return Response.created(uri.getAbsolutePathBuilder().path(String.valueOf(d.id)).build()).entity(get(d.id)).build();
    }

    /** What this request would do if created and started now (as {@code GET {id}/plan} of a draft); stores nothing. */
    @POST
    @Path("plan")
    @Consumes(MediaType.APPLICATION_JSON)
    @APIResponse(responseCode = "200", description = "The plan the draft of this request would show",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PlanReads.Plan.class)))
    public ObjectNode preview(DeploymentRequest request) {
        return preview.plan(request, actor());
    }

    @GET
    @Path("{id}")
    public DeploymentView get(@PathParam("id") long id) {
        return view(reads.get(id));
    }

    /**
     * Edits a deployment not yet started: the request's shape, as at creation; a setting the body leaves out keeps its
     * value, {@code null} sets it back to its default. An edit that changes something after an approval takes the
     * approval back (issue 42).
     */
    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public DeploymentView update(@PathParam("id") long id, @RequestBody(required = true, content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = DeploymentRequest.class)))
            JsonNode body) throws JsonProcessingException {
        ObjectNode given = Updates.checked(json, body, DeploymentRequest.class);
        service.update(id, stored -> read(Updates.put(json.valueToTree(stored), given, Map.of())), actor());
        return get(id);
    }

    /**
     * Edits a deployment not yet started by a JSON Merge Patch (RFC 7396), e.g. {@code {"maxParallel": 4}};
     * {@code null} sets a setting back to its default. Refused (409) once started, as {@code PUT} is.
     */
    @PATCH
    @Path("{id}")
    @Consumes(Updates.MERGE_PATCH)
    public DeploymentView patch(@PathParam("id") long id, @RequestBody(required = true, content = @Content(
            mediaType = Updates.MERGE_PATCH, schema = @Schema(implementation = DeploymentRequest.class)))
            JsonNode body) throws JsonProcessingException {
        ObjectNode given = Updates.checked(json, body, DeploymentRequest.class);
        service.update(id, stored -> read(Updates.patch(json.valueToTree(stored), given, Map.of())), actor());
        return get(id);
    }

    private DeploymentRequest read(ObjectNode merged) {
        try {
            return json.treeToValue(merged, DeploymentRequest.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored deployment merged with a checked body cannot be read", e);
        }
    }

    /** Four eyes: an approver other than its creator approves it, with an optional comment (issue 42). */
    @POST
    @Path("{id}/approve")
    @Consumes(MediaType.APPLICATION_JSON)
    public DeploymentView approve(@PathParam("id") long id, DecisionRequest body) {
        String comment = approver(body, "approve");
        approvals.approve(id, comment, actor());
        return get(id);
    }

    /** Four eyes: an approver other than its creator rejects it, saying why ({@code comment}); it ends REJECTED. */
    @POST
    @Path("{id}/reject")
    @Consumes(MediaType.APPLICATION_JSON)
    public DeploymentView reject(@PathParam("id") long id, DecisionRequest body) {
        String comment = approver(body, "reject");
        approvals.reject(id, comment, actor());
        return get(id);
    }

    /** The deployment's own timeline (approvals, rejections, approvals taken back), oldest first. */
    @GET
    @Path("{id}/events")
    public List<DeploymentEventView> deploymentEvents(@PathParam("id") long id) {
        return reads.deploymentEvents(id).stream()
                .map(e -> new DeploymentEventView(e.id, e.at, e.kind, e.message, e.actor, e.comment)).toList();
    }

    /** The comment, once the caller is known to hold the approver role; noted for the audit listing. */
    private String approver(DecisionRequest body, String verb) {
        if (!identity.hasRole(Actors.APPROVER)) {
            throw new RefusedException(verb + " needs the role " + Actors.APPROVER + "; " + actor() + " has "
                    + (identity.getRoles().isEmpty() ? "none of Qawk's roles" : String.join(", ",
                    identity.getRoles().stream().sorted().toList())));
        }
        String comment = body == null ? null : body.comment();
        if (comment != null && !comment.isBlank()) {
            note.set(comment.length() > 900 ? comment.substring(0, 900) + "…" : comment.strip());
        }
        return comment;
    }

    /** The body of an approval or a rejection. */
    @JsonIgnoreProperties(ignoreUnknown = false)
    public record DecisionRequest(String comment) {
    }

    /** One entry of a deployment's own timeline: its kind, the words, who, and the comment given with it. */
    public record DeploymentEventView(long id, Instant at, DeploymentEvent.Kind type, String message, String actor,
                                      String comment) {
    }

    @POST
    @Path("{id}/start")
    public DeploymentView start(@PathParam("id") long id) {
        commands.start(id, actor());
        return get(id);
    }

    @POST
    @Path("{id}/pause")
    public DeploymentView pause(@PathParam("id") long id) {
        commands.pause(id, actor());
        return get(id);
    }

    @POST
    @Path("{id}/resume")
    public DeploymentView resume(@PathParam("id") long id) {
        commands.resume(id, actor());
        return get(id);
    }

    @POST
    @Path("{id}/abort")
    public DeploymentView abort(@PathParam("id") long id) {
        commands.abort(id, actor());
        return get(id);
    }

    @GET
    @Path("{id}/plan")
    public PlanReads.Plan plan(@PathParam("id") long id) {
        return plans.plan(id);
    }

    @GET
    @Path("{id}/runs")
    public List<RunView> runs(@PathParam("id") long id) {
        return views(reads.runs(id));
    }

    @GET
    @Path("{id}/runs/{runId}")
    public RunView run(@PathParam("id") long id, @PathParam("runId") long runId) {
        return views(reads.run(id, runId)).get(0);
    }

    @GET
    @Path("{id}/runs/{runId}/events")
    public List<EventView> events(@PathParam("id") long id, @PathParam("runId") long runId) {
        return reads.events(id, runId).stream()
                .map(e -> new EventView(e.id, e.at, e.kind, e.message, e.actor, e.data)).toList();
    }

    private List<RunView> views(DeploymentReads.Runs read) {
        CentreWindows windows = windowsNow(read.deployment());
        Instant now = clock.instant();
        return read.runs().stream().map(r -> RunView.of(r.run(), r.devices(), windows, now)).toList();
    }

    @POST
    @Path("{id}/runs/{runId}/rollback")
    @Consumes(MediaType.APPLICATION_JSON)
    public RunView rollback(@PathParam("id") long id, @PathParam("runId") long runId, CommandRequest body) {
        commands.rollback(id, runId, body == null ? null : body.reason(), actor());
        return run(id, runId);
    }

    @POST
    @Path("{id}/runs/{runId}/retry")
    @Consumes(MediaType.APPLICATION_JSON)
    public RunView retry(@PathParam("id") long id, @PathParam("runId") long runId, CommandRequest body) {
        commands.retry(id, runId, body == null ? null : body.reason(), actor());
        return run(id, runId);
    }

    /**
     * Adopts what hawkBit shows for every run of the deployment whose records are behind hawkBit: each takes the state
     * hawkBit's actions prove (every device finished on its new set: SUCCEEDED; every one back on its photograph:
     * ROLLED_BACK). 409 when there is none, or when hawkBit proves no state for one of them (nothing is changed).
     */
    @POST
    @Path("{id}/adopt")
    public DeploymentView adoptDeployment(@PathParam("id") long id) {
        divergences.adopt(id, null, actor());
        return get(id);
    }

    /** As {@link #adoptDeployment}, for one run whose records are behind hawkBit. */
    @POST
    @Path("{id}/runs/{runId}/adopt")
    public RunView adoptRun(@PathParam("id") long id, @PathParam("runId") long runId) {
        divergences.adopt(id, runId, actor());
        return run(id, runId);
    }

    private DeploymentView view(DeploymentReads.Deployment read) {
        return DeploymentView.of(read, windowsNow(read.deployment()));
    }

    private CentreWindows windowsNow(SystemDeployment d) {
        return CentreWindows.of(d.windows, clock.instant());
    }

    private String actor() {
        return Actors.of(identity);
    }

    /**
     * One entry of a run's timeline: its kind ({@code type}), the words operators read, who did it (null: the
     * engine), and the kind's fields ({@code data}, as {@link TimelineEvent}'s record of that kind has them; null for
     * entries from before they were stored).
     */
    /** {@code data}: the event's fields, the stored JSON text passed through as a JSON object. */
    public record EventView(long id, Instant at, RunEventKind type, String message, String actor,
                            @JsonRawValue
                            @Schema(type =
                                    SchemaType.OBJECT)
                            String data) {
    }
}
