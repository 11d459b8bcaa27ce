package io.qawk.orchestrator.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.InputFormat;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import com.networknt.schema.oas.OpenApi31;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Checks every answer of the API a test receives through {@link Api} against the document the service publishes
 * ({@code /q/openapi}): the path and method must be in it, the status documented, and the body valid against the
 * schema of that status and content type (JSON Schema 2020-12 as OpenAPI 3.1 has it). A field added without its schema,
 * a null where the document says a string, an undocumented status: the test that first sees it fails, saying what.
 * The document is read once per JVM (and the schemas compiled once per answer), so checking costs little.
 */
public final class Contract implements Filter {

    public static final Contract CHECK = new Contract();

    private static final String DOCUMENT_IRI = "https://qawk.test/openapi.json";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static volatile Document document;

    private Contract() {
    }

    @Override
    public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification response,
                           FilterContext context) {
        Response answer = context.next(request, response);
        URI uri = URI.create(request.getURI());
        if (uri.getPath().startsWith("/qawk/")) {
            List<String> violations = document(uri).check(request.getMethod(), uri.getPath(), answer);
            if (!violations.isEmpty()) {
                throw new AssertionError("the answer to " + request.getMethod() + " " + uri.getPath() + " ("
                        + answer.getStatusCode() + ") breaks the published OpenAPI document:\n  "
                        + String.join("\n  ", violations) + "\nbody: " + abbreviated(answer.asString()));
            }
        }
        return answer;
    }

    /** The published document, read from the service under test (once per JVM: every start serves the same). */
    public static Document document(URI service) {
        Document d = document;
        if (d == null) {
            synchronized (Contract.class) {
                if (document == null) {
                    document = Document.read(URI.create(service.getScheme() + "://" + service.getAuthority()
                            + "/q/openapi?format=json"));
                }
                d = document;
            }
        }
        return d;
    }

    private static String abbreviated(String body) {
        return body.length() > 2000 ? body.substring(0, 2000) + "…" : body;
    }

    /** The document with its paths as patterns, and the schemas compiled as answers need them. */
    public static final class Document {

        private final JsonNode root;
        private final JsonSchemaFactory schemas;
        private final List<Template> templates;
        private final Map<String, JsonSchema> compiled = new ConcurrentHashMap<>();

        private record Template(String path, Pattern pattern, int parameters) {
        }

        private Document(String text) throws IOException {
            this.root = JSON.readTree(text);
            this.schemas = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012, b -> b
                    .metaSchema(OpenApi31.getInstance())
                    .defaultMetaSchemaIri(OpenApi31.getInstance().getIri())
                    .schemaLoaders(l -> l.schemas(Map.of(DOCUMENT_IRI, text))));
            List<Template> ts = new ArrayList<>();
            root.path("paths").fieldNames().forEachRemaining(p -> ts.add(new Template(p,
                    Pattern.compile(Pattern.quote(p).replaceAll("\\{[^}]+}", "\\\\E[^/]+\\\\Q")),
                    p.split("\\{", -1).length - 1)));
            ts.sort(Comparator.comparingInt(Template::parameters));
            this.templates = List.copyOf(ts);
        }

        static Document read(URI uri) {
            try {
                HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200) {
                    throw new IllegalStateException(uri + " answered " + r.statusCode());
                }
                return new Document(r.body());
            } catch (IOException e) {
                throw new IllegalStateException("cannot read the OpenAPI document at " + uri, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        public JsonNode root() {
            return root;
        }

        /** What is wrong with this answer to {@code method path}; empty when it keeps the contract. */
        public List<String> check(String method, String path, Response answer) {
            return check(method, path, answer.getStatusCode(), answer.getContentType(), answer.asString());
        }

        public List<String> check(String method, String path, int status, String contentType, String body) {
            Template template = templates.stream().filter(t -> t.pattern().matcher(path).matches()).findFirst()
                    .orElse(null);
            if (template == null) {
                return List.of(); // not an address of the API (a test asking for one that does not exist)
            }
            String m = method.toLowerCase(Locale.ROOT);
            JsonNode op = root.path("paths").path(template.path()).path(m);
            if (op.isMissingNode() && status == 405) {
                return List.of(); // a method the API does not have there
            }
            if (op.isMissingNode()) {
                return List.of(method + " " + template.path() + " is not in the document");
            }
            String pointer = "/paths/" + escape(template.path()) + "/" + m + "/responses/" + status;
            JsonNode documented = op.path("responses").path(String.valueOf(status));
            if (documented.isMissingNode()) {
                return List.of("status " + status + " is not documented for " + method + " " + template.path()
                        + " (documented: " + names(op.path("responses")) + ")");
            }
            if (documented.has("$ref")) {
                pointer = documented.get("$ref").asText().substring(1);
                documented = root.at(pointer);
            }
            if (body == null || body.isEmpty()) {
                return List.of();
            }
            String type = contentType == null ? "" : contentType.split(";")[0].strip();
            JsonNode content = documented.path("content");
            if (!content.has(type)) {
                return List.of("content type '" + type + "' of status " + status + " is not documented for " + method
                        + " " + template.path() + " (documented: " + names(content) + ")");
            }
            if (!type.endsWith("json")) {
                return List.of();
            }
            String schemaPointer = pointer + "/content/" + escape(type) + "/schema";
            JsonSchema schema = compiled.computeIfAbsent(schemaPointer,
                    p -> schemas.getSchema(SchemaLocation.of(DOCUMENT_IRI + "#" + p)));
            Set<ValidationMessage> errors = schema.validate(body, InputFormat.JSON);
            return errors.stream().map(ValidationMessage::toString).sorted().collect(Collectors.toList());
        }

        private static String names(JsonNode node) {
            List<String> names = new ArrayList<>();
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                names.add(it.next());
            }
            return String.join(", ", names);
        }

        private static String escape(String name) {
            return name.replace("~", "~0").replace("/", "~1");
        }
    }
}
