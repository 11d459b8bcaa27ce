package io.qawk.orchestrator.channel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qawk.orchestrator.common.Actors;
import io.qawk.orchestrator.common.Approval;
import io.qawk.orchestrator.common.Updates;
import io.qawk.orchestrator.deployment.ChannelDeployments;
import io.qawk.orchestrator.hawkbit.HawkbitGateway;
import io.qawk.orchestrator.hawkbit.HawkbitTarget;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.manifest.ManifestRevision;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
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
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;

import java.util.List;

import org.jboss.logging.Logger;

/** Channels (fleets): settings, releases of a set and a manifest, resume and promotion. */
@Path("/qawk/v1/fleets")
@Produces(MediaType.APPLICATION_JSON)
public class ChannelResource {

    private static final Logger LOG = Logger.getLogger(ChannelResource.class);

    @Inject
    ChannelService service;

    @Inject
    SecurityIdentity identity;

    @Inject
    ChannelProblems problems;

    @Inject
    ChannelDeployments deployments;

    @Inject
    ReleaseStatus status;

    @Inject
    HawkbitGateway hawkbit;

    @Inject
    ObjectMapper json;

    @GET
    @Transactional
    public List<ChannelView> list() {
        return service.list().stream().map(f -> view(f, null)).toList();
    }

    @GET
    @Path("{id}")
    @Transactional
    public ChannelView get(@PathParam("id") long id) {
        return view(service.get(id), deployments.overlaps(id));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(ChannelRequest request, @Context UriInfo uri) {
        Channel f = service.create(request, actor());
        List<String> members = matchedNow(f.match);
        return Response.created(uri.getAbsolutePathBuilder().path(String.valueOf(f.id)).build())
                .entity(members == null ? get(f.id) : created(f.id, members)).build();
    }

    /** A new channel's view, its overlaps from what its query matches in hawkBit now: no sync has stored its members. */
    @Transactional
    ChannelView created(long id, List<String> members) {
        return view(service.get(id), deployments.overlaps(id, members));
    }

    /**
     * The devices the query matches in hawkBit now; null when hawkBit cannot tell (not configured, leaving requests
     * unanswered, or failing), and the last sync's members are used: a hawkBit already silent is not asked.
     */
    private List<String> matchedNow(String match) {
        if (!hawkbit.isConfigured() || hawkbit.hangs()) {
            return null;
        }
        try {
            return hawkbit.targets(match).stream().map(HawkbitTarget::controllerId).toList();
        } catch (RuntimeException e) {
            LOG.warnf("the new channel's overlaps are from the last sync: hawkBit did not answer its query (%s)", e.toString());
            return null;
        }
    }

    /**
     * Changes the settings the body gives (inside {@code orchestrator} and {@code devices} too); the others keep their
     * values; {@code null} clears what may be empty ({@link ChannelUpdate}). A set and/or manifest given is released.
     */
    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public ChannelView update(@PathParam("id") long id, @RequestBody(required = true, content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ChannelRequest.class)))
            JsonNode body) throws JsonProcessingException {
        ObjectNode given = Updates.checked(json, body, ChannelRequest.class);
        service.update(id, f -> ChannelUpdate.of(json, given), actor());
        return get(id);
    }

    /**
     * A JSON Merge Patch (RFC 7396) of the channel: as {@code PUT}, and {@code orchestrator.windows} and
     * {@code orchestrator.metricGate} are merged into the stored ones rather than replaced.
     */
    @PATCH
    @Path("{id}")
    @Consumes(Updates.MERGE_PATCH)
    public ChannelView patch(@PathParam("id") long id, @RequestBody(required = true, content = @Content(
            mediaType = Updates.MERGE_PATCH, schema = @Schema(implementation = ChannelRequest.class)))
            JsonNode body) throws JsonProcessingException {
        ObjectNode given = Updates.checked(json, body, ChannelRequest.class);
        service.update(id, f -> ChannelUpdate.of(json, mergedIntoStored(f, given)), actor());
        return get(id);
    }

    /** The patch with its {@code orchestrator.windows} and {@code .metricGate} objects merged into the stored ones. */
    private ObjectNode mergedIntoStored(Channel f, ObjectNode patch) {
        ObjectNode result = patch.deepCopy();
        if (result.get("orchestrator") instanceof ObjectNode o) {
            if (o.get("windows") instanceof ObjectNode w && f.windows != null) {
                o.set("windows", Updates.merge(json.valueToTree(f.windows), w));
            }
            if (o.get("metricGate") instanceof ObjectNode g && f.metricGate() != null) {
                o.set("metricGate", Updates.merge(json.valueToTree(f.metricGate()), g));
            }
        }
        return result;
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") long id) {
        service.delete(id);
        return Response.noContent().build();
    }

    @POST
    @Path("{id}/resume")
    public ChannelView resume(@PathParam("id") long id) {
        service.resume(id, actor());
        return get(id);
    }

    @POST
    @Path("{id}/promote")
    @Consumes(MediaType.APPLICATION_JSON)
    public ChannelView promote(@PathParam("id") long id, PromoteRequest body) {
        ChannelRelease r = service.promote(id, body, actor());
        return get(r.channelId);
    }

    /** {@code overlaps}: null in the listing, which would ask them of every channel. */
    private ChannelView view(Channel f, List<ChannelDeployments.Overlap> overlaps) {
        Channel target = f.promotesToId == null ? null : Channel.findById(f.promotesToId);
        ChannelRelease r = ChannelRelease.current(f.id).orElse(null);
        ChannelView.ReleaseView release = null;
        if (r != null) {
            Manifest m = r.manifestId == null ? null : Manifest.findById(r.manifestId);
            ChannelDeployments.Brief d = r.deploymentId == null ? null : deployments.brief(r.deploymentId).orElse(null);
            ChannelView.SystemCounts systems = status.systems(r);
            ChannelView.DeviceCounts devices = ReleaseStatus.devices(r);
            ManifestRevision.Pinned pinned = d == null ? null : ManifestRevision.pinned(d.manifestRevisionId());
            release = new ChannelView.ReleaseView(r.id, r.distributionSetId, r.distributionSet, r.manifestId,
                    m == null ? null : m.name, r.deploymentId, d == null ? null : d.phase().name(), r.progress(),
                    r.completedAt != null, r.halted, r.haltCause == null ? null : r.haltCause.name(), r.haltReason,
                    systems, devices, ReleaseStatus.systemsWords(systems),
                    ReleaseStatus.devicesWords(devices, r.distributionSet), r.promotedFromId, r.createdAt, r.createdBy,
                    r.completedAt, pinned == null ? null : pinned.revision(), pinned != null && pinned.manifestChangedSince());
        }
        ChannelProblems.Listing problemList = problems.of(f.id);
        return new ChannelView(f.id, f.name, f.match, f.promotesToId, target == null ? null : target.name,
                new ChannelRequest.Orchestrator(f.maxParallel, f.maxFailed, f.byCentre, List.copyOf(f.centres),
                        f.orchestratorVerifyTimeoutSeconds, f.orchestratorSoakSeconds, f.metricGate(), f.windows),
                new ChannelRequest.Devices(f.deviceMaxFailed, f.deviceBatchSize), f.soakSeconds, f.managedBy,
                Approval.of(f.approvalRequired).word(), release,
                service.gate(f), f.createdAt, f.updatedAt, problemList.total(), problemList.devices(), overlaps,
                overlaps == null ? null : ChannelDeployments.overlapsSummary(overlaps));
    }

    private String actor() {
        return Actors.of(identity);
    }
}
