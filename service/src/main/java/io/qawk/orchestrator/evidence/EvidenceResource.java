package io.qawk.orchestrator.evidence;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import jakarta.ws.rs.core.StreamingOutput;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

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

    @Inject
    ObjectMapper json;

    /**
     * The record as sealed, with its digest ({@code digest.value}, over the record without {@code digest}); as CSV, one
     * row per system and device, when the first of the acceptable types that is JSON, CSV or a wildcard is
     * {@code text/csv}. Written system by system as the store reads them, so a record of any size is served in the
     * memory of a few hundred systems.
     */
    @GET
    @Produces({MediaType.APPLICATION_JSON, CSV})
    public Response record(@PathParam("id") long id, @Context HttpHeaders headers) {
        EvidenceStore.Stored s = stored(id);
        ObjectNode head = store.head(s);
        if (wantsCsv(headers.getAcceptableMediaTypes())) {
            String deployment = head.path("deployment").path("id").asText();
            StreamingOutput csv = out -> {
                Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
                w.write(EvidenceCsv.header());
                for (Iterator<String> systems = store.systems(s); systems.hasNext(); ) {
                    w.write(EvidenceCsv.rows(deployment, store.parse(systems.next()), s.digest()));
                }
                w.flush();
            };
            return Response.ok(csv, CSV + "; charset=UTF-8")
                    .header("Content-Disposition", "attachment; filename=\"deployment-" + id + "-evidence.csv\"")
                    .build();
        }
        StreamingOutput record = out -> {
            JsonGenerator g = json.getFactory().createGenerator(out).disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.writeStartObject();
            for (Iterator<Map.Entry<String, JsonNode>> fields = head.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                g.writeFieldName(field.getKey());
                json.writeTree(g, field.getValue());
            }
            g.writeArrayFieldStart(Canonical.SYSTEMS);
            for (Iterator<String> systems = store.systems(s); systems.hasNext(); ) {
                json.writeTree(g, store.parse(systems.next()));
            }
            g.writeEndArray();
            g.writeObjectFieldStart("digest");
            g.writeStringField("algorithm", "SHA-256");
            g.writeStringField("value", s.digest());
            g.writeStringField("over", "the record without this field, as canonical JSON: keys sorted, no whitespace, UTF-8");
            g.writeEndObject();
            g.writeEndObject();
            g.flush();
        };
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
        String recomputed = store.recomputedDigest(s);
        boolean intact = recomputed.equals(s.digest());
        List<String> differences = new ArrayList<>(store.differences(id, s));
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
