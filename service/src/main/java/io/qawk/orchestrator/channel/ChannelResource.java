package io.qawk.orchestrator.channel;

import io.qawk.orchestrator.common.Actors;
import io.qawk.orchestrator.deployment.ChannelDeployments;
import io.qawk.orchestrator.manifest.Manifest;
import io.qawk.orchestrator.manifest.ManifestRevision;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.util.List;

/** Channels (fleets): settings, releases of a set and a manifest, resume and promotion. */
@Path("/qawk/v1/fleets")
@Produces(MediaType.APPLICATION_JSON)
public class ChannelResource {

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

    @GET
    @Transactional
    public List<ChannelView> list() {
        return service.list().stream().map(this::view).toList();
    }

    @GET
    @Path("{id}")
    @Transactional
    public ChannelView get(@PathParam("id") long id) {
        return view(service.get(id));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(ChannelRequest request, @Context UriInfo uri) {
        Channel f = service.create(request, actor());
        return Response.created(uri.getAbsolutePathBuilder().path(String.valueOf(f.id)).build()).entity(get(f.id)).build();
    }

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public ChannelView update(@PathParam("id") long id, ChannelRequest request) {
        service.update(id, request, actor());
        return get(id);
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

    private ChannelView view(Channel f) {
        Channel target = f.promotesToId == null ? null : Channel.findById(f.promotesToId);
        ChannelRelease r = ChannelRelease.current(f.id).orElse(null);
        ChannelView.ReleaseView release = null;
        if (r != null) {
            Manifest m = r.manifestId == null ? null : Manifest.findById(r.manifestId);
            ChannelDeployments.Brief d = r.deploymentId == null ? null : deployments.brief(r.deploymentId).orElse(null);
            ChannelView.SystemCounts systems = status.systems(r);
            ChannelView.DeviceCounts devices = ReleaseStatus.devices(r);
            ManifestRevision.Pinned pinned = d == null ? null : ManifestRevision.pinned(d.manifestRevisionId());
            String state = r.halted ? "HALTED" : r.completedAt != null ? "COMPLETE" : "RUNNING";
            release = new ChannelView.ReleaseView(r.id, r.distributionSetId, r.distributionSet, r.manifestId,
                    m == null ? null : m.name, r.deploymentId, d == null ? null : d.phase().name(), state,
                    r.completedAt != null, r.halted, r.haltCause == null ? null : r.haltCause.name(), r.haltReason,
                    systems, devices, ReleaseStatus.systemsWords(systems),
                    ReleaseStatus.devicesWords(devices, r.distributionSet), r.promotedFromId, r.createdAt, r.createdBy,
                    r.completedAt, pinned == null ? null : pinned.revision(), pinned != null && pinned.manifestChangedSince());
        }
        ChannelProblems.Listing problemList = problems.of(f.id);
        return new ChannelView(f.id, f.name, f.match, f.promotesToId, target == null ? null : target.name,
                new ChannelRequest.Orchestrator(f.maxParallel, f.maxFailed, f.byCentre, List.copyOf(f.centres),
                        f.orchestratorVerifyTimeoutSeconds, f.orchestratorSoakSeconds, f.metricGate(), f.windows),
                new ChannelRequest.Devices(f.deviceMaxFailed, f.deviceBatchSize), f.soakSeconds, f.managedBy, release,
                service.gate(f), f.createdAt, f.updatedAt, problemList.total(), problemList.devices());
    }

    private String actor() {
        return Actors.of(identity);
    }
}
