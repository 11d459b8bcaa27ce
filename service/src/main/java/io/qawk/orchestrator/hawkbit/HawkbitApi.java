package io.qawk.orchestrator.hawkbit;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Encoded;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.List;

/**
 * The low layer: hawkBit's Management API ({@code /rest/v1}) as a Quarkus REST client, one method per endpoint Qawk
 * uses, no retries and no interpretation. {@link HawkbitClient} builds it with {@code QuarkusRestClientBuilder} from
 * {@link HawkbitConfig} (base URL, Basic auth, timeouts), so it has no config key of its own.
 * <p>
 * Answers are raw {@link Response}s because the status decides what they mean (204 = none, 404 = no such target,
 * 429/5xx = retry, see {@link HawkbitAnswer}); {@link HawkbitClient} reads their bodies into {@link HawkbitShapes}.
 * A {@code controllerId} is passed already encoded as one path segment ({@link HawkbitGateway#segment}), so that
 * {@code /}, {@code ?} and {@code ..} in an id can never change the path. A null query parameter is not sent.
 */
@Path("/rest/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
interface HawkbitApi {

    @GET
    @Path("/targets")
    Response targets(@QueryParam("offset") long offset, @QueryParam("limit") int limit,
            @QueryParam("sort") String sort, @QueryParam("q") String fiql);

    @GET
    @Path("/targets/{id}/attributes")
    Response attributes(@PathParam("id") @Encoded String controllerId);

    @GET
    @Path("/targets/{id}/metadata")
    Response metadata(@PathParam("id") @Encoded String controllerId, @QueryParam("offset") long offset,
            @QueryParam("limit") int limit);

    @GET
    @Path("/targets/{id}/installedDS")
    Response installedSet(@PathParam("id") @Encoded String controllerId);

    @GET
    @Path("/targets/{id}/assignedDS")
    Response assignedSet(@PathParam("id") @Encoded String controllerId);

    @GET
    @Path("/targets/{id}/actions")
    Response actions(@PathParam("id") @Encoded String controllerId, @QueryParam("offset") long offset,
            @QueryParam("limit") int limit, @QueryParam("sort") String sort, @QueryParam("q") String fiql);

    @GET
    @Path("/targets/{id}/actions/{actionId}")
    Response action(@PathParam("id") @Encoded String controllerId, @PathParam("actionId") long actionId);

    @GET
    @Path("/targets/{id}/actions/{actionId}/status")
    Response actionStatus(@PathParam("id") @Encoded String controllerId, @PathParam("actionId") long actionId,
            @QueryParam("offset") long offset, @QueryParam("limit") int limit);

    @GET
    @Path("/distributionsets/{setId}")
    Response distributionSet(@PathParam("setId") long setId);

    @GET
    @Path("/distributionsets")
    Response distributionSets(@QueryParam("offset") long offset, @QueryParam("limit") int limit,
            @QueryParam("sort") String sort, @QueryParam("q") String fiql);

    @POST
    @Path("/distributionsets/{setId}/assignedTargets")
    Response assign(@PathParam("setId") long setId, List<HawkbitShapes.AssignTarget> targets);
    @DELETE
    @Path("/targets/{id}/actions/{actionId}")
    Response cancelAction(@PathParam("id") @Encoded String controllerId, @PathParam("actionId") long actionId);

    @GET
    @Path("/rollouts")
    Response rollouts(@QueryParam("offset") long offset, @QueryParam("limit") int limit,
            @QueryParam("sort") String sort);

    @GET
    @Path("/rollouts/{rolloutId}/deploygroups")
    Response rolloutGroups(@PathParam("rolloutId") long rolloutId, @QueryParam("offset") long offset,
            @QueryParam("limit") int limit);

    @GET
    @Path("/rollouts/{rolloutId}/deploygroups/{groupId}/targets")
    Response rolloutGroupTargets(@PathParam("rolloutId") long rolloutId, @PathParam("groupId") long groupId,
            @QueryParam("offset") long offset, @QueryParam("limit") int limit, @QueryParam("q") String fiql);

    @POST
    @Path("/rollouts/{rolloutId}/pause")
    Response pauseRollout(@PathParam("rolloutId") long rolloutId);

    @POST
    @Path("/rollouts/{rolloutId}/resume")
    Response resumeRollout(@PathParam("rolloutId") long rolloutId);

    @POST
    @Path("/rollouts/{rolloutId}/deny")
    Response denyRollout(@PathParam("rolloutId") long rolloutId, @QueryParam("remark") String remark);

    @GET
    @Path("/system/configs/{key}")
    Response tenantConfig(@PathParam("key") String key);

    @GET
    @Path("/autoassignments")
    Response autoAssignmentObjects(@QueryParam("offset") long offset, @QueryParam("limit") int limit);

    @GET
    @Path("/targetfilters")
    Response targetFilters(@QueryParam("offset") long offset, @QueryParam("limit") int limit,
            @QueryParam("sort") String sort);

    @DELETE
    @Path("/targetfilters/{filterId}/autoAssignDS")
    Response switchOffAutoAssignment(@PathParam("filterId") long filterId);

    @POST
    @Path("/targetfilters/{filterId}/autoAssignDS")
    Response autoAssign(@PathParam("filterId") long filterId, HawkbitShapes.AutoAssignment body);
}
