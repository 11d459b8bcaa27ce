package io.qawk.orchestrator.apidoc;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.MediaType;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.FieldInfo;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.RecordComponentInfo;
import org.jboss.jandex.Type;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Makes the published document ({@code /q/openapi}) a contract an integrator can generate a client from, for every
 * endpoint, those added later too, without annotating each: operation ids a client method would have, the
 * problem+json answers every operation can give, 201 with its {@code Location} where something is created, 204 for
 * deletions, tags named as the API's parts ({@code Deployment}, not the class), HTTP basic as the security, fields the
 * Java type lets be null declared nullable (OpenAPI 3.1: a type array or {@code anyOf} with {@code null}), and the
 * examples of the README's tour on their request bodies. Runs at
 * build time, so the document stored in {@code target/openapi} (linted by the build) is the one served;
 * {@link ProviderSecurityFilter} adds what depends on run-time settings (the identity provider).
 * <p>
 * One class: SmallRye runs one filter at build time, and its steps are short passes over the same document that
 * read together as the contract; the tables (operation ids, answers) head it.
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.BUILD)
public class ContractFilter implements OASFilter {

    static final String BASIC = "basic";
    static final String PROBLEM = "Problem";

    /** Reads that answer 409 while what they read cannot exist yet: an evidence record before its deployment ended. */
    static final Set<String> READS_THAT_CONFLICT = Set.of(
            "/qawk/v1/systemdeployments/{id}/evidence", "/qawk/v1/systemdeployments/{id}/evidence/verify");

    /** Operation ids where {@code method + Noun} (the class's noun) does not read as a client method. */
    static final Map<String, String> OPERATION_IDS = Map.ofEntries(
            Map.entry("AuditResource_list", "listAuditEntries"),
            Map.entry("InventoryResource_status", "getInventory"),
            Map.entry("InventoryResource_syncNow", "syncInventory"),
            Map.entry("SystemsResource_systems", "listSystems"),
            Map.entry("SystemsResource_system", "getSystem"),
            Map.entry("SystemsResource_versions", "getSystemVersions"),
            Map.entry("SystemsResource_problems", "listProblemDevices"),
            Map.entry("MendResource_mend", "mendSystem"),
            Map.entry("MeResource_me", "getMe"),
            Map.entry("ManifestYamlResource_export", "exportManifestYaml"),
            Map.entry("TopologyYamlResource_export", "exportTopologyYaml"),
            Map.entry("DeploymentResource_plan", "getDeploymentPlan"),
            Map.entry("DeploymentResource_runs", "listRuns"),
            Map.entry("DeploymentResource_run", "getRun"),
            Map.entry("DeploymentResource_events", "listRunEvents"),
            Map.entry("DeploymentResource_rollback", "rollbackRun"),
            Map.entry("DeploymentResource_retry", "retryRun"),
            Map.entry("ThreatResource_threats", "listThreats"),
            Map.entry("ThreatResource_holds", "listHolds"),
            Map.entry("ThreatResource_release", "releaseHold"));

    /** The problem answers, each a shared response: status → (name, description, has a problem body). */
    private record Answer(String name, String description, boolean body) {
    }

    private static final Map<String, Answer> ANSWERS = new TreeMap<>(Map.ofEntries(
            Map.entry("400", new Answer("BadRequest",
                    "The request is invalid: the problem says what and where", true)),
            Map.entry("401", new Answer("Unauthorized",
                    "No credentials, or wrong ones; WWW-Authenticate names the ways in", false)),
            Map.entry("403", new Answer("Forbidden",
                    "The user may not do this (a viewer may only read): the problem says which role would", true)),
            Map.entry("404", new Answer("NotFound",
                    "An object the path names does not exist", true)),
            Map.entry("409", new Answer("Conflict", "The request conflicts with the current state (a name taken, "
                    + "a state that does not allow it, a change made at the same time)", true)),
            Map.entry("413", new Answer("PayloadTooLarge",
                    "The request body is larger than the service accepts", true)),
            Map.entry("415", new Answer("UnsupportedMediaType",
                    "The request body's Content-Type is not one this operation reads", true)),
            Map.entry("500", new Answer("InternalError",
                    "A bug in the service (logged)", true)),
            Map.entry("502", new Answer("BadGateway",
                    "hawkBit refused a request of the service", true)),
            Map.entry("503", new Answer("Unavailable",
                    "hawkBit (or another service Qawk needs) cannot be reached right now", true))));

    private static final Pattern TEMPLATE = Pattern.compile("\\{[^}]+}");
    private static final DotName NOT_NULL = DotName.createSimple("jakarta.validation.constraints.NotNull");
    private static final DotName JSON_INCLUDE = DotName.createSimple("com.fasterxml.jackson.annotation.JsonInclude");
    private static final DotName NULLABLE = DotName.createSimple(Nullable.class.getName());
    private static final DotName JSON_PROPERTY = DotName.createSimple("com.fasterxml.jackson.annotation.JsonProperty");

    private final IndexView index;

    /** Built by SmallRye OpenAPI at build time with the application's index (to read the Java types). */
    public ContractFilter(IndexView index) {
        this.index = index;
    }

    @Override
    public void filterOpenAPI(OpenAPI api) {
        api.getPaths().getPathItems().keySet().stream().filter(p -> !p.startsWith("/qawk/")).toList()
                .forEach(api.getPaths()::removePathItem);
        api.setServers(new ArrayList<>(List.of(OASFactory.createServer().url("/")
                .description("this service (the address /q/openapi was read from)"))));
        Components components = api.getComponents() == null ? OASFactory.createComponents() : api.getComponents();
        api.setComponents(components);
        components.setSecuritySchemes(new LinkedHashMap<>(Map.of(BASIC, OASFactory.createSecurityScheme()
                .type(SecurityScheme.Type.HTTP).scheme("basic")
                .description("HTTP basic: admin (reads and changes) or viewer (reads only)"))));
        api.setSecurity(new ArrayList<>(List.of(OASFactory.createSecurityRequirement().addScheme(BASIC))));
        components.addSchema(PROBLEM, problemSchema());
        ANSWERS.forEach((status, a) -> components.addResponse(a.name(), answer(a)));

        markNullable(components.getSchemas());
        Map<String, Operation> byId = new TreeMap<>();
        api.getPaths().getPathItems().forEach((path, item) -> item.getOperations().forEach((method, op) -> {
            op.setOperationId(operationId(op.getOperationId()));
            op.setTags(tags(op.getTags()));
            byId.put(op.getOperationId(), op);
            responses(api, path, method, op);
        }));
        examples(byId);
    }

    // ---- operation ids --------------------------------------------------------------------------------------

    /** {@code SystemTypeResource_create} (SmallRye's CLASS_METHOD strategy) → {@code createSystemType}. */
    static String operationId(String classAndMethod) {
        if (classAndMethod == null || !classAndMethod.contains("_")) {
            return classAndMethod;
        }
        String named = OPERATION_IDS.get(classAndMethod);
        if (named != null) {
            return named;
        }
        String type = classAndMethod.substring(0, classAndMethod.indexOf('_'));
        String method = classAndMethod.substring(classAndMethod.indexOf('_') + 1);
        String noun = type.endsWith("Resource") ? type.substring(0, type.length() - "Resource".length()) : type;
        if (!method.chars().allMatch(Character::isLowerCase)) {
            return method;
        }
        return method.equals("list") ? "list" + plural(noun) : method + noun;
    }

    /** {@code Deployment Resource} (SmallRye's tag, the class) → {@code Deployment}: a client's DeploymentApi. */
    static List<String> tags(List<String> tags) {
        return tags == null ? null : new ArrayList<>(tags.stream().map(t -> t.replaceFirst(" Resource$", "")).toList());
    }

    private static String plural(String noun) {
        if (noun.endsWith("s")) {
            return noun;
        }
        return noun.endsWith("y") ? noun.substring(0, noun.length() - 1) + "ies" : noun + "s";
    }

    // ---- answers ---------------------------------------------------------------------------------------------

    private void responses(OpenAPI api, String path, PathItem.HttpMethod method, Operation op) {
        APIResponses responses = op.getResponses();
        APIResponse ok = responses.getAPIResponse("200");
        if (ok != null && untyped(ok)) {
            if (method == PathItem.HttpMethod.DELETE) {
                responses.removeAPIResponse("200");
                responses.addAPIResponse("204", OASFactory.createAPIResponse().description("Deleted"));
            } else if (method == PathItem.HttpMethod.POST) {
                itemSchema(api, path).ifPresent(item -> {
                    responses.removeAPIResponse("200");
                    responses.addAPIResponse("201", OASFactory.createAPIResponse().description("Created")
                            .content(json(item)));
                });
            }
        }
        responses.getAPIResponses().forEach((status, r) -> {
            if (status.equals("201")) {
                r.addHeader("Location", OASFactory.createHeader().description("the address of what was created")
                        .required(true).schema(OASFactory.createSchema().addType(SchemaType.STRING).format("uri")));
            }
        });
        boolean takesInput = op.getRequestBody() != null
                || (op.getParameters() != null && !op.getParameters().isEmpty());
        boolean write = method != PathItem.HttpMethod.GET && method != PathItem.HttpMethod.HEAD;
        for (String status : ANSWERS.keySet()) {
            boolean applies = switch (status) {
                case "400" -> takesInput || write;
                case "404" -> TEMPLATE.matcher(path).find();
                case "409" -> write || READS_THAT_CONFLICT.contains(path);
                case "413", "415" -> op.getRequestBody() != null;
                default -> true;
            };
            if (applies) {
                responses.addAPIResponse(status, OASFactory.createAPIResponse()
                        .ref("#/components/responses/" + ANSWERS.get(status).name()));
            }
        }
        responses.setAPIResponses(new TreeMap<>(responses.getAPIResponses()));
    }

    /** A {@code Response}-returning method: SmallRye documents 200 with an empty schema. */
    private static boolean untyped(APIResponse r) {
        if (r.getContent() == null || r.getContent().getMediaTypes().isEmpty()) {
            return true;
        }
        return r.getContent().getMediaTypes().values().stream()
                .allMatch(m -> m.getSchema() == null || m.getSchema().getAll().isEmpty());
    }

    /** What {@code GET path/{id}} answers: what a {@code POST path} creates. */
    private static Optional<Schema> itemSchema(OpenAPI api, String path) {
        return api.getPaths().getPathItems().entrySet().stream()
                .filter(e -> e.getKey().startsWith(path + "/{") && e.getKey().indexOf('/', path.length() + 1) < 0)
                .map(e -> e.getValue().getGET())
                .filter(get -> get != null && get.getResponses().getAPIResponse("200") != null
                        && !untyped(get.getResponses().getAPIResponse("200")))
                .map(get -> get.getResponses().getAPIResponse("200").getContent()
                        .getMediaType(jakarta.ws.rs.core.MediaType.APPLICATION_JSON))
                .filter(m -> m != null && m.getSchema() != null)
                .map(MediaType::getSchema)
                .findFirst();
    }

    private static APIResponse answer(Answer a) {
        APIResponse r = OASFactory.createAPIResponse().description(a.description());
        if (a.body()) {
            r.content(OASFactory.createContent().addMediaType("application/problem+json", OASFactory
                    .createMediaType().schema(OASFactory.createSchema().ref("#/components/schemas/" + PROBLEM))));
        }
        if (a.name().equals("Unauthorized")) {
            r.addHeader("WWW-Authenticate", OASFactory.createHeader().description("the ways in that are on")
                    .schema(OASFactory.createSchema().addType(SchemaType.STRING)));
        }
        return r;
    }

    private static Content json(Schema schema) {
        return OASFactory.createContent().addMediaType(jakarta.ws.rs.core.MediaType.APPLICATION_JSON,
                OASFactory.createMediaType().schema(schema));
    }

    /** RFC 9457, as {@code common/Problem} writes it (empty fields left out). */
    private static Schema problemSchema() {
        Schema text = OASFactory.createSchema().addType(SchemaType.STRING);
        Schema fieldError = OASFactory.createSchema().addType(SchemaType.OBJECT)
                .addProperty("field", OASFactory.createSchema().addType(SchemaType.STRING)
                        .description("where: a JSON path into the request, or a parameter's name"))
                .addProperty("message", text);
        return OASFactory.createSchema().addType(SchemaType.OBJECT)
                .description("An RFC 9457 problem: what is wrong and where")
                .addProperty("type", text)
                .addProperty("title", text)
                .addProperty("status", OASFactory.createSchema().addType(SchemaType.INTEGER).format("int32"))
                .addProperty("detail", text)
                .addProperty("instance", text)
                .addProperty("errors", OASFactory.createSchema().addType(SchemaType.ARRAY).items(fieldError))
                .required(List.of("title", "status"));
    }

    // ---- nullable fields -------------------------------------------------------------------------------------

    /**
     * A property whose Java type can be null (not a primitive, no {@code @NotNull}, not left out when null by
     * {@code @JsonInclude}) may be {@code null} in an answer: declared so, OpenAPI 3.1's way.
     */
    private void markNullable(Map<String, Schema> schemas) {
        if (schemas == null || index == null) {
            return;
        }
        Map<String, List<ClassInfo>> bySimpleName = index.getKnownClasses().stream()
                // the service's own: a test run's index has the tests' too (the generated client's DeploymentView)
                .filter(c -> c.name().toString().startsWith("io.qawk.orchestrator.") && c.simpleName() != null)
                .collect(Collectors.groupingBy(ClassInfo::simpleName, Collectors.collectingAndThen(
                        Collectors.toMap(ClassInfo::name, c -> c, (a, b) -> a), m -> List.copyOf(m.values()))));
        schemas.forEach((name, schema) -> {
            if (schema.getProperties() == null) {
                return;
            }
            // ComponentRequest1: SmallRye's name for the second class of that simple name; the properties tell which
            List<ClassInfo> classes = bySimpleName.getOrDefault(name.replaceFirst("\\d+$", ""), List.of()).stream()
                    .filter(c -> schema.getProperties().keySet().stream().allMatch(p -> declares(c, p))).toList();
            if (classes.size() != 1 || omitsNulls(classes.get(0))) {
                return;
            }
            ClassInfo type = classes.get(0);
            Map<String, Schema> properties = new LinkedHashMap<>(schema.getProperties());
            properties.replaceAll((property, s) -> {
                javaType(type, property).ifPresent(t -> nullableElements(s, t));
                return nullableJava(type, property) ? nullable(s) : s;
            });
            schema.setProperties(properties);
        });
    }

    private static boolean omitsNulls(AnnotationTarget target) {
        AnnotationInstance include = target.declaredAnnotation(JSON_INCLUDE);
        return include != null && include.value() != null && !include.value().asEnum().equals("ALWAYS");
    }

    private static boolean declares(ClassInfo type, String property) {
        return type.recordComponents().stream()
                .anyMatch(c -> jsonName(c.name(), c.declaredAnnotation(JSON_PROPERTY)).equals(property))
                || type.fields().stream().anyMatch(f -> !Modifier.isStatic(f.flags())
                        && jsonName(f.name(), f.declaredAnnotation(JSON_PROPERTY)).equals(property))
                || jsonMethod(type, property).isPresent();
    }

    /** A property Jackson takes from a method ({@code @JsonProperty("configurationId") configurationId()}). */
    private static Optional<MethodInfo> jsonMethod(ClassInfo type, String property) {
        return type.methods().stream().filter(m -> m.parametersCount() == 0 && m.hasDeclaredAnnotation(JSON_PROPERTY)
                && jsonName(m.name(), m.declaredAnnotation(JSON_PROPERTY)).equals(property)).findFirst();
    }

    private static Optional<Type> javaType(ClassInfo type, String property) {
        for (RecordComponentInfo c : type.recordComponents()) {
            if (jsonName(c.name(), c.declaredAnnotation(JSON_PROPERTY)).equals(property)) {
                return Optional.of(c.type());
            }
        }
        return Optional.empty();
    }

    /** {@code List<@Nullable String>}, {@code Map<String, List<@Nullable String>>}: those elements may be null. */
    private static void nullableElements(Schema s, Type t) {
        if (t.kind() != Type.Kind.PARAMETERIZED_TYPE) {
            return;
        }
        List<Type> arguments = t.asParameterizedType().arguments();
        Type element = arguments.get(arguments.size() - 1);
        Schema inner = s.getItems() != null ? s.getItems() : s.getAdditionalPropertiesSchema();
        if (inner == null) {
            return;
        }
        nullableElements(inner, element);
        if (element.hasAnnotation(NULLABLE)) {
            Schema marked = nullable(inner);
            if (s.getItems() != null) {
                s.setItems(marked);
            } else {
                s.setAdditionalPropertiesSchema(marked);
            }
        }
    }

    private static boolean nullableJava(ClassInfo type, String property) {
        for (RecordComponentInfo c : type.recordComponents()) {
            if (jsonName(c.name(), c.declaredAnnotation(JSON_PROPERTY)).equals(property)) {
                return c.type().kind() != Type.Kind.PRIMITIVE && !c.hasDeclaredAnnotation(NOT_NULL)
                        && !omitsNulls(c);
            }
        }
        for (FieldInfo f : type.fields()) {
            if (!Modifier.isStatic(f.flags())
                    && jsonName(f.name(), f.declaredAnnotation(JSON_PROPERTY)).equals(property)) {
                return f.type().kind() != Type.Kind.PRIMITIVE && !f.hasDeclaredAnnotation(NOT_NULL)
                        && !omitsNulls(f);
            }
        }
        return jsonMethod(type, property).map(m -> m.returnType().kind() != Type.Kind.PRIMITIVE
                && !m.hasDeclaredAnnotation(NOT_NULL) && !omitsNulls(m)).orElse(false);
    }

    private static String jsonName(String javaName, AnnotationInstance jsonProperty) {
        return jsonProperty == null || jsonProperty.value() == null || jsonProperty.value().asString().isEmpty()
                ? javaName : jsonProperty.value().asString();
    }

    private static Schema nullable(Schema s) {
        List<SchemaType> types = s.getType();
        if (s.getRef() == null && s.getEnumeration() == null && types != null && !types.isEmpty()) {
            if (!types.contains(SchemaType.NULL)) {
                s.addType(SchemaType.NULL);
            }
            return s;
        }
        if (s.getRef() == null && (types == null || types.isEmpty()) && s.getAnyOf() == null
                && s.getOneOf() == null && s.getAllOf() == null) {
            return s; // no type: anything, null included
        }
        Schema wrapped = OASFactory.createSchema().addAnyOf(s)
                .addAnyOf(OASFactory.createSchema().addType(SchemaType.NULL));
        if (s.getDescription() != null) {
            wrapped.setDescription(s.getDescription());
        }
        return wrapped;
    }

    // ---- examples --------------------------------------------------------------------------------------------

    /** {@code apidoc/examples/<operationId>.json}: the example request body of that operation (the README's tour). */
    private static void examples(Map<String, Operation> byId) {
        ObjectMapper json = new ObjectMapper();
        for (String id : Set.copyOf(byId.keySet())) {
            Operation op = byId.get(id);
            if (op.getRequestBody() == null || op.getRequestBody().getContent() == null) {
                continue;
            }
            MediaType plain = op.getRequestBody().getContent().getMediaType(jakarta.ws.rs.core.MediaType.APPLICATION_JSON);
            MediaType body = plain != null ? plain : op.getRequestBody().getContent().getMediaType("application/merge-patch+json");
            try (InputStream in = ContractFilter.class.getResourceAsStream("examples/" + id + ".json")) {
                if (in != null && body != null) {
                    body.setExample(json.readValue(in, Object.class));
                }
            } catch (IOException e) {
                throw new IllegalStateException("the example of " + id + " is not JSON", e);
            }
        }
    }
}
