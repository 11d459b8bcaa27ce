package io.qawk.orchestrator.hostile;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.qawk.orchestrator.testsupport.Tables;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.qawk.orchestrator.common.Updates;
import jakarta.inject.Inject;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a request names must exist (issue 36): every reference in every request body of the API, found by reflection
 * over the resources' body parameters (a {@code Long} or a field called {@code …Id}), has a case in {@link #CASES}, and
 * each case sends a body whose reference points at nothing: 400 problem+json naming the field and the value, nothing
 * stored. A reference field added later without a case fails {@link #everyReferenceOfEveryRequestIsRefusedWhenItPointsAtNothing};
 * a case without the check in the service fails it too.
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class RequestReferencesTest {

    static final long NOTHING = 424242;
    static final String[] TABLES = HostileInputTest.TABLES;

    /** Bodies that are not records, and why their references are checked elsewhere. */
    static final Map<String, String> NOT_RECORDS = Map.of(
            "POST /qawk/v1/systemtypes/import", "Mender YAML: names no other object",
            "POST /qawk/v1/manifests/import", "Mender YAML: its system type and sets by name, refused when unknown (YamlImportApiTest)");

    /** What a case needs of the objects that exist: a system type, a manifest, a distribution set, a channel. */
    record Ids(long type, long manifest, long set, long channel, long draft) {
    }

    /**
     * One reference of one endpoint: the JSON path of the error ({@code components[0].distributionSetId}), the request
     * path, and the body with {@code %s} where the reference goes.
     */
    record Case(String field, String path, String body) {
    }

    interface CaseOf {
        Case of(Ids ids);
    }

    /** Keyed by endpoint and reference as the walk names them: {@code POST /qawk/v1/manifests components[].distributionSetId}. */
    static final Map<String, CaseOf> CASES = new TreeMap<>();

    static {
        String deployment = "{\"name\": \"ref-d\", \"manifestId\": %s}";
        for (String path : List.of("/qawk/v1/systemdeployments", "/qawk/v1/systemdeployments/plan")) {
            CASES.put("POST " + path + " manifestId", ids -> new Case("manifestId", path, deployment));
            CASES.put("POST " + path + " fleetId", ids -> new Case("fleetId", path,
                    "{\"name\": \"ref-d\", \"manifestId\": " + ids.manifest() + ", \"fleetId\": %s}"));
        }
        CASES.put("PUT /qawk/v1/systemdeployments/{id} manifestId", ids -> new Case("manifestId",
                "/qawk/v1/systemdeployments/" + ids.draft(), deployment));
        CASES.put("PUT /qawk/v1/systemdeployments/{id} fleetId", ids -> new Case("fleetId",
                "/qawk/v1/systemdeployments/" + ids.draft(),
                "{\"name\": \"ref-d\", \"manifestId\": " + ids.manifest() + ", \"fleetId\": %s}"));
        CASES.put("POST /qawk/v1/manifests/from-census systemTypeId", ids -> new Case("systemTypeId",
                "/qawk/v1/manifests/from-census", "{\"name\": \"ref-b\", \"systemTypeId\": %s, \"versions\": "
                + "{\"lane\": [\"ref-app:1\"]}}"));
        String manifest = "{\"name\": \"ref-m2\", \"systemTypeId\": %s, \"components\": [{\"componentType\": \"lane\","
                + " \"distributionSetId\": %s, \"order\": 1}]}";
        CASES.put("POST /qawk/v1/manifests systemTypeId", ids -> new Case("systemTypeId", "/qawk/v1/manifests",
                manifest.formatted("%s", ids.set())));
        CASES.put("POST /qawk/v1/manifests components[].distributionSetId", ids -> new Case(
                "components[0].distributionSetId", "/qawk/v1/manifests", manifest.formatted(ids.type(), "%s")));
        CASES.put("PUT /qawk/v1/manifests/{id} systemTypeId", ids -> new Case("systemTypeId",
                "/qawk/v1/manifests/" + ids.manifest(), manifest.formatted("%s", ids.set())));
        CASES.put("PUT /qawk/v1/manifests/{id} components[].distributionSetId", ids -> new Case(
                "components[0].distributionSetId", "/qawk/v1/manifests/" + ids.manifest(), manifest.formatted(ids.type(), "%s")));
        for (String field : List.of("promotesTo", "distributionSetId", "manifestId")) {
            CASES.put("POST /qawk/v1/fleets " + field, ids -> new Case(field, "/qawk/v1/fleets",
                    "{\"name\": \"ref-c2\", \"match\": \"attribute.channel==ref-c2\", \"" + field + "\": %s}"));
            CASES.put("PUT /qawk/v1/fleets/{id} " + field, ids -> new Case(field, "/qawk/v1/fleets/" + ids.channel(),
                    "{\"" + field + "\": %s}"));
        }
    }

    static {
        // a JSON Merge Patch names the same references as the PUT of the same resource, and is refused the same way
        Map<String, CaseOf> patches = new TreeMap<>();
        CASES.forEach((name, caseOf) -> {
            if (name.startsWith("PUT ")) {
                patches.put("PATCH " + name.substring("PUT ".length()), caseOf);
            }
        });
        CASES.putAll(patches);
    }

    @Inject
    DataSource dataSource;

    @Test
    void everyReferenceOfEveryRequestIsRefusedWhenItPointsAtNothing() {
        Map<String, String> found = references();
        assertThat(found.keySet()).as("references in the API's request bodies, each needing a case here")
                .containsExactlyInAnyOrderElementsOf(CASES.keySet());
        try (Lanes lanes = new Lanes("ref-").withSetsAndType()) {
            int manifest = lanes.manifest("2.0", "2");
            int channel = lanes.channel("ch", "");
            long draft = Api.admin().body("{\"name\": \"ref-draft\", \"manifestId\": " + manifest + "}")
                    .post("/qawk/v1/systemdeployments").then().statusCode(201).extract().<Integer>path("id");
            Ids ids = new Ids(lanes.typeId, manifest, lanes.set("app:2"), channel, draft);
            List<String> before = Tables.dump(dataSource, TABLES);
            List<String> wrong = new ArrayList<>();
            CASES.forEach((name, caseOf) -> {
                Case c = caseOf.of(ids);
                String method = name.substring(0, name.indexOf(' '));
                Response r = Api.admin().contentType("PATCH".equals(method) ? Updates.MERGE_PATCH : "application/json")
                        .body(c.body().formatted(NOTHING)).request(method, c.path());
                String message = r.statusCode() == 400 ? r.jsonPath().getString(
                        "errors.find { it.field == '" + c.field() + "' }.message") : null;
                if (r.statusCode() != 400 || !r.contentType().startsWith("application/problem+json")
                        || message == null || !message.contains(String.valueOf(NOTHING))) {
                    wrong.add(name + " answered " + r.statusCode() + ": " + r.asString());
                }
            });
            assertThat(wrong).as("references to nothing not refused as 400 naming the field and the value").isEmpty();
            assertThat(Tables.dump(dataSource, TABLES)).as("nothing stored").isEqualTo(before);
        }
    }

    /** The walk itself, on records made up here: it finds ids at the top, in nested records and in lists of them. */
    @Test
    void theWalkFindsReferencesWhereverTheyAre() {
        record Leaf(String name, Long setId, Integer order) {
        }
        record Inner(List<Leaf> leaves, Long promotesTo) {
        }
        record Body(String name, long ownerId, Inner inner, List<Long> otherIds, Integer count) {
        }
        Map<String, String> found = new TreeMap<>();
        walk(Body.class, "", "POST /x", found);
        assertThat(found.keySet()).containsExactly("POST /x inner.leaves[].setId", "POST /x inner.promotesTo",
                "POST /x otherIds[]", "POST /x ownerId");
    }

    /** Every reference field of every request body of the resources, as {@code METHOD /path field} → record. */
    static Map<String, String> references() {
        Map<String, String> found = new TreeMap<>();
        TreeSet<String> notRecords = new TreeSet<>();
        for (Class<?> resource : resources()) {
            String base = resource.getAnnotation(Path.class).value();
            for (Method m : resource.getDeclaredMethods()) {
                String verb = verb(m);
                if (verb == null) {
                    continue;
                }
                Path sub = m.getAnnotation(Path.class);
                String endpoint = verb + " " + base + (sub == null ? "" : "/" + sub.value());
                for (Parameter p : m.getParameters()) {
                    if (!isBody(p)) {
                        continue;
                    }
                    Class<?> shape = declaredShape(p);
                    if (shape.isRecord()) {
                        walk(shape, "", endpoint, found);
                    } else {
                        notRecords.add(endpoint);
                    }
                }
            }
        }
        assertThat(notRecords).as("request bodies that are not records: each needs its reason in NOT_RECORDS")
                .containsExactlyInAnyOrderElementsOf(NOT_RECORDS.keySet());
        return found;
    }

    static void walk(Class<?> record, String prefix, String endpoint, Map<String, String> found) {
        for (RecordComponent c : record.getRecordComponents()) {
            String json = jsonName(c);
            String name = prefix + json;
            Class<?> type = c.getType();
            if (Collection.class.isAssignableFrom(type)) {
                Type element = ((ParameterizedType) c.getGenericType()).getActualTypeArguments()[0];
                if (element instanceof Class<?> e && reference(json, e)) {
                    found.put(endpoint + " " + name + "[]", record.getSimpleName());
                } else if (element instanceof Class<?> e && e.isRecord()) {
                    walk(e, name + "[].", endpoint, found);
                }
            } else if (reference(json, type)) {
                found.put(endpoint + " " + name, record.getSimpleName());
            } else if (type.isRecord()) {
                walk(type, name + ".", endpoint, found);
            }
        }
    }

    /** The field as the API names it: the component's name, or its {@code @JsonProperty} (e.g. {@code fleetId}). */
    static String jsonName(RecordComponent c) {
        JsonProperty p = c.getAccessor().getAnnotation(JsonProperty.class);
        return p == null || p.value().isEmpty() ? c.getName() : p.value();
    }

    /** Ids in this API are {@code Long}s; a field named {@code …Id(s)} is one whatever its type. */
    static boolean reference(String name, Class<?> type) {
        return type == Long.class || type == long.class || name.endsWith("Id") || name.endsWith("Ids");
    }

    private static String verb(Method m) {
        for (Class<? extends Annotation> a : List.of(POST.class, PUT.class, PATCH.class, DELETE.class)) {
            if (m.isAnnotationPresent(a)) {
                return a.getSimpleName();
            }
        }
        return null;
    }

    /**
     * The record a body is read as: its type, or, for a body taken as JSON and merged into what is stored (a PUT that
     * keeps what it does not name, a PATCH), the record its OpenAPI {@code @RequestBody} declares.
     */
    private static Class<?> declaredShape(Parameter p) {
        RequestBody declared = p.getAnnotation(RequestBody.class);
        if (!p.getType().isRecord() && declared != null && declared.content().length > 0) {
            return declared.content()[0].schema().implementation();
        }
        return p.getType();
    }

    /** A parameter with no JAX-RS annotation (path, query, header, context …) is the body. */
    private static boolean isBody(Parameter p) {
        return Stream.of(p.getAnnotations()).noneMatch(a -> a.annotationType().getPackageName().startsWith("jakarta.ws.rs"));
    }

    /** The service's resources: classes with {@code @Path}, read from its sources. */
    static List<Class<?>> resources() {
        var main = Paths.get("src/main/java");
        try (var files = Files.walk(main)) {
            List<Class<?>> out = new ArrayList<>();
            for (var f : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String name = main.relativize(f).toString().replace('/', '.').replaceAll("\\.java$", "");
                Class<?> c = Class.forName(name, false, RequestReferencesTest.class.getClassLoader());
                if (c.isAnnotationPresent(Path.class) && !c.isInterface()) { // interfaces: REST clients (hawkBit's)
                    out.add(c);
                }
            }
            assertThat(out).as("resources in %s", main).hasSizeGreaterThan(5);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
