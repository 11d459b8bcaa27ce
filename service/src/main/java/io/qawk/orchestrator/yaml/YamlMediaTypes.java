package io.qawk.orchestrator.yaml;

import io.qawk.orchestrator.common.Problem;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.net.URI;
import java.util.Set;
import java.util.function.Function;

/** The content types an import accepts, and the answer when another is sent. */
final class YamlMediaTypes {

    private static final Set<String> ACCEPTED = Set.of("application/yaml", "text/yaml", "application/x-yaml",
            "text/x-yaml");

    private YamlMediaTypes() {
    }

    static boolean accepted(MediaType type) {
        return type != null && ACCEPTED.contains((type.getType() + "/" + type.getSubtype()).toLowerCase());
    }

    static Response unsupported(MediaType type, UriInfo uri) {
        return Problem.response(415, "Unsupported Media Type", "send the YAML document with Content-Type "
                + "application/yaml (text/yaml and application/x-yaml are accepted too)"
                + (type == null ? "" : "; got " + type.getType() + "/" + type.getSubtype()),
                "/" + uri.getPath().replaceFirst("^/", ""));
    }

    /**
     * The shared shape of both imports: refuse a body that is not YAML, import it, and answer 201 with its location
     * when it was created, 200 when it was updated or unchanged.
     */
    static Response importAnswer(byte[] body, HttpHeaders headers,
                                                    UriInfo uri, String collection,
                                                    Function<byte[], ImportResult> importer) {
        if (!accepted(headers.getMediaType())) {
            return unsupported(headers.getMediaType(), uri);
        }
        ImportResult result = importer.apply(body);
        if (result.created()) {
            return Response.created(URI.create(collection + "/" + result.id()))
                    .entity(result).build();
        }
        return Response.ok(result).build();
    }
}
