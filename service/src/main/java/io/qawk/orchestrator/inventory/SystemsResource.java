package io.qawk.orchestrator.inventory;

import io.qawk.orchestrator.apidoc.Nullable;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.qawk.orchestrator.common.FieldErrors;
import io.qawk.orchestrator.common.NotFoundException;
import io.qawk.orchestrator.systemtype.SystemTypeService;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;
import java.util.Map;

/** The systems a system type's devices form, as last synced from hawkBit. */
@Path("/qawk/v1/systemtypes/{id}")
@Produces(MediaType.APPLICATION_JSON)
public class SystemsResource {

    static final int MAX_LIMIT = 500;

    @Inject
    SystemsQuery query;

    @Inject
    SystemTypeService types;

    @Inject
    Census census;

    /**
     * A page of the type's systems: each with what it runs ({@code versions}), the manifest it is fully on ({@code on})
     * and the rule it breaks ({@code broken}); {@code on}/{@code off} (a manifest id of this type) keep only the
     * systems fully on it, or not; {@code broken=true} only those breaking a rule.
     */
    @GET
    @Path("systems")
    public SystemsPage systems(@PathParam("id") long id, @QueryParam("offset") String offsetText,
                               @QueryParam("limit") String limitText, @QueryParam("group") String group,
                               @QueryParam("on") String on, @QueryParam("off") String off,
                               @QueryParam("broken") String broken) {
        FieldErrors errors = new FieldErrors();
        int offset = errors.whole(offsetText, "offset", 0);
        int limit = errors.whole(limitText, "limit", 50);
        checkPaging(offset, limit, errors);
        Long onId = manifestId(on, "on", errors);
        Long offId = manifestId(off, "off", errors);
        boolean brokenOnly = false;
        if (broken != null && !broken.isBlank()) {
            brokenOnly = "true".equals(broken.strip());
            errors.check(brokenOnly || "false".equals(broken.strip()), "broken", "must be true or false (got \""
                    + (broken.length() > 20 ? broken.substring(0, 20) + "…" : broken) + "\")");
        }
        errors.throwIfAny();
        types.get(id);
        List<ManifestTargets.Target> manifests = census.manifestsOf(id);
        ManifestTargets.Target onManifest = target(manifests, onId, "on", id, errors);
        ManifestTargets.Target offManifest = target(manifests, offId, "off", id, errors);
        errors.throwIfAny();
        // one transaction and connection for the whole answer: operators' screens poll this
        SystemsQuery.Listing listing = query.listing(id, new SystemsQuery.Filter(blankToNull(group), onManifest,
                        offManifest, brokenOnly, manifests), offset, limit)
                .orElseThrow(() -> new NotFoundException("system type", id));
        return new SystemsPage(listing.page().total(), listing.page().content(), listing.problemDevices());
    }

    /** The census of the type: the distinct mixes its systems run, how many each, the manifests and rules. */
    @GET
    @Path("versions")
    public Census.Versions versions(@PathParam("id") long id) {
        return census.versions(types.get(id));
    }

    @GET
    @Path("systems/{system}")
    public SystemDetail system(@PathParam("id") long id, @PathParam("system") String system) {
        types.get(id);
        List<SystemsQuery.SystemDevice> devices = query.devices(id, system);
        if (devices.isEmpty()) {
            throw new NotFoundException("system", "'" + system + "' of system type " + id);
        }
        SystemsQuery.SystemSummary summary = query.summary(id, system, census.manifestsOf(id)).orElse(null);
        return new SystemDetail(system, devices.get(0).group(), devices.size(), devices,
                summary == null ? null : summary.versions(), summary == null ? null : summary.on(),
                summary == null ? null : summary.broken());
    }

    private static Long manifestId(String text, String field, FieldErrors errors) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            long value = Long.parseLong(text.strip());
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        errors.add(field, "must be a manifest id (got \"" + (text.length() > 20 ? text.substring(0, 20) + "…" : text)
                + "\")");
        return null;
    }

    private static ManifestTargets.Target target(List<ManifestTargets.Target> manifests, Long manifestId, String field,
                                                 long typeId, FieldErrors errors) {
        if (manifestId == null) {
            return null;
        }
        ManifestTargets.Target t = manifests.stream().filter(m -> m.id() == manifestId).findFirst().orElse(null);
        errors.check(t != null, field, "manifest " + manifestId + " is not a manifest of system type " + typeId);
        return t;
    }

    @GET
    @Path("problems")
    public SystemsQuery.Page<SystemsQuery.SystemDevice> problems(@PathParam("id") long id,
                                                                 @QueryParam("offset") String offsetText,
                                                                 @QueryParam("limit") String limitText) {
        types.get(id);
        int[] paging = paging(offsetText, limitText);
        return query.problems(id, paging[0], paging[1]);
    }

    /** {@code offset} (default 0, 0 or more) and {@code limit} (default 50, 1 to the maximum), checked together. */
    static int[] paging(String offsetText, String limitText) {
        FieldErrors errors = new FieldErrors();
        int offset = errors.whole(offsetText, "offset", 0);
        int limit = errors.whole(limitText, "limit", 50);
        checkPaging(offset, limit, errors);
        errors.throwIfAny();
        return new int[] {offset, limit};
    }

    private static void checkPaging(int offset, int limit, FieldErrors errors) {
        errors.check(offset >= 0, "offset", "must be 0 or more");
        errors.check(limit >= 1 && limit <= MAX_LIMIT, "limit", "must be between 1 and " + MAX_LIMIT);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    /** The systems list: {@code total} systems, this page's {@code content}, and devices that form no system. */
    public record SystemsPage(long total, List<SystemsQuery.SystemSummary> content, long problemDevices) {
    }

    /** One system and its devices; what it runs, the manifest it is fully on and the rule it breaks, as listed. */
    public record SystemDetail(String system, String group, int devices, List<SystemsQuery.SystemDevice> content,
                               Map<String, List<@Nullable String>> versions, SystemsQuery.OnManifest on,
                               SystemsQuery.Broken broken) {

        /** The configuration identity of what it runs ({@link ConfigurationId}); null before its first sync. */
        @JsonProperty("configurationId")
        public String configurationId() {
            return versions == null ? null : ConfigurationId.of(versions);
        }
    }
}
