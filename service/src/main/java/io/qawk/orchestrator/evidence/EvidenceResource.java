package io.qawk.orchestrator.evidence;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qawk.orchestrator.deployment.model.SystemDeployment;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A deployment's evidence record, once it has ended: {@code GET …/evidence} (JSON, or CSV with {@code Accept:
 * text/csv}), the record sealed at its end with its SHA-256; {@code GET …/evidence/verify} checks that the stored
 * record still has its digest and that the deployment's rows still say what it says.
 */
@Path("/qawk/v1/systemdeployments/{id}/evidence")
public class EvidenceResource {

    static final String CSV = "text/csv";

    @Inject
    EvidenceStore store;

    /**
     * The record as sealed, with its digest ({@code digest.value}, over the record without {@code digest}); as CSV, one
     * row per system and device, when the first of the acceptable types that is JSON, CSV or a wildcard is
     * {@code text/csv}.
     */
    @GET
    @Produces({MediaType.APPLICATION_JSON, CSV})
    public Response record(@PathParam("id") long id, @Context HttpHeaders headers) {
        EvidenceStore.Stored s = stored(id);
        ObjectNode record = store.parse(s);
        if (wantsCsv(headers.getAcceptableMediaTypes())) {
            return Response.ok(EvidenceCsv.of(record, s.digest()), CSV + "; charset=UTF-8")
                    .header("Content-Disposition", "attachment; filename=\"deployment-" + id + "-evidence.csv\"")
                    .build();
        }
        ObjectNode digest = record.putObject("digest");
        digest.put("algorithm", "SHA-256");
        digest.put("value", s.digest());
        digest.put("over", "the record without this field, as canonical JSON: keys sorted, no whitespace, UTF-8");
        return Response.ok(record, MediaType.APPLICATION_JSON_TYPE).build();
    }

    static boolean wantsCsv(List<MediaType> acceptable) {
        MediaType csv = MediaType.valueOf(CSV);
        for (MediaType t : acceptable) {
            if (t.isCompatible(MediaType.APPLICATION_JSON_TYPE) || t.isCompatible(csv)) {
                return !t.isWildcardType() && !t.isWildcardSubtype() && t.isCompatible(csv);
            }
        }
        return false;
    }

    /**
     * Whether the record is as sealed: {@code recordIntact} when the stored text still has its digest,
     * {@code rowsMatch} when the deployment's rows rebuilt into a record still say the same (the census and the rules
     * in force, pictures of the end, are not rebuilt), {@code matches} when both; {@code differences} says where.
     */
    @GET
    @Path("verify")
    @Produces(MediaType.APPLICATION_JSON)
    public Verification verify(@PathParam("id") long id) {
        EvidenceStore.Stored s = stored(id);
        String recomputed = Canonical.sha256(s.text());
        boolean intact = recomputed.equals(s.digest());
        List<String> differences = new ArrayList<>(RecordDifferences.of(store.parse(s), store.rebuilt(id, s.sealedAt())));
        boolean rowsMatch = differences.isEmpty();
        if (!intact) {
            differences.add(0, "the stored record no longer has the digest it was sealed with (" + s.digest() + ")");
        }
        return new Verification(id, s.endedAt(), s.sealedAt(), s.digest(), recomputed, intact, rowsMatch,
                intact && rowsMatch, differences);
    }

    /** The answer of {@code …/evidence/verify}. */
    public record Verification(long deploymentId, Instant endedAt, Instant sealedAt, String digest, String recomputed,
                               boolean recordIntact, boolean rowsMatch, boolean matches, List<String> differences) {
    }

    /** The record of the deployment's latest end, sealed now if that end has none yet (an end before records). */
    private EvidenceStore.Stored stored(long id) {
        SystemDeployment d = store.ended(id);
        return store.find(id, d.endedAt).orElseGet(() -> {
            store.seal(id);
            return store.find(id, d.endedAt).orElseThrow(() -> new IllegalStateException(
                    "the evidence record of deployment " + id + " could not be sealed"));
        });
    }
}
