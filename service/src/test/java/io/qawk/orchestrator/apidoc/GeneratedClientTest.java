package io.qawk.orchestrator.apidoc;

import io.qawk.client.ApiClient;
import io.qawk.client.ApiException;
import io.qawk.client.api.DeploymentApi;
import io.qawk.client.api.InventoryApi;
import io.qawk.client.api.ManifestApi;
import io.qawk.client.api.SystemTypeApi;
import io.qawk.client.api.SystemsApi;
import io.qawk.client.model.ComponentRequest;
import io.qawk.client.model.ComponentRequest1;
import io.qawk.client.model.DeploymentPhase;
import io.qawk.client.model.DeploymentRequest;
import io.qawk.client.model.DeploymentView;
import io.qawk.client.model.ManifestRequest;
import io.qawk.client.model.ManifestView;
import io.qawk.client.model.Plan;
import io.qawk.client.model.RunState;
import io.qawk.client.model.RunView;
import io.qawk.client.model.SystemTypeRequest;
import io.qawk.client.model.SystemTypeView;
import io.qawk.orchestrator.testsupport.Api;
import io.qawk.orchestrator.testsupport.HawkbitTestResource;
import io.qawk.orchestrator.testsupport.Lanes;
import io.qawk.orchestrator.testsupport.PrismProxy;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Issue 45: a client generated at build time from the committed document {@code docs/openapi.yaml} (openapi-generator's
 * Java client, {@code target/generated-test-sources/openapi-client}) runs the README's tour against the real service
 * and hawkBit, and nothing else talks to the API: a system type, the inventory read, a manifest, a deployment, its
 * plan, its start, read until it ends, its runs and their events, and a problem answer. The tour goes through Stoplight
 * Prism's validating proxy built from the document the service publishes ({@code --errors}): it must see no violation,
 * of a request or of an answer ({@code -Dqawk.prism.skip=true}: straight to the service, and the test says so).
 */
@QuarkusTest
@QuarkusTestResource(HawkbitTestResource.class)
class GeneratedClientTest {

    static final Duration WITHIN = Duration.ofSeconds(120);

    @Test
    void theReadmesTourRunsOnAClientGeneratedFromTheDocumentWithNoViolationThroughPrism() throws Exception {
        URI service = URI.create("http://127.0.0.1:" + RestAssured.port);
        PrismProxy prism = PrismProxy.skipped() ? null : PrismProxy.start(service, service + "/q/openapi");
        if (prism == null) {
            System.out.println("GeneratedClientTest: -Dqawk.prism.skip=true, the tour talks to the service directly");
        }
        List<String> flagged = new ArrayList<>();
        try (Lanes lanes = new Lanes("client-")) {
            // HTTP/1.1: java.net.http's default asks for an h2c upgrade, whose headers Prism passes on to the service,
            // which then switches protocols under Prism's feet
            ApiClient client = new ApiClient(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1),
                    ApiClient.createDefaultObjectMapper(), (prism == null ? service : prism.uri()).toString());
            client.setReadTimeout(Duration.ofSeconds(30));
            String basic = Base64.getEncoder().encodeToString(("admin:" + Api.ADMIN_PASSWORD)
                    .getBytes(StandardCharsets.UTF_8));
            client.setRequestInterceptor(request -> request.header("Authorization", "Basic " + basic));
            client.setResponseInterceptor(answer -> answer.headers().firstValue("sl-violations")
                    .ifPresent(v -> flagged.add(answer.request().method() + " " + answer.uri().getPath() + ": " + v)));
            SystemTypeApi types = new SystemTypeApi(client);
            InventoryApi inventory = new InventoryApi(client);
            SystemsApi systems = new SystemsApi(client);
            ManifestApi manifests = new ManifestApi(client);
            DeploymentApi deployments = new DeploymentApi(client);

            // hawkBit's side, as an operator has it: the sets of version 2, and one lane of four devices
            String p = lanes.prefix;
            long app = lanes.hawkbit.createDistributionSet(p + "app", "2");
            long term = lanes.hawkbit.createDistributionSet(p + "term", "2");
            long disp = lanes.hawkbit.createDistributionSet(p + "disp", "2");
            lanes.system("lane-01", "c01");
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(lanes.hawkbit.findTargetIds("attribute.device_type==" + p + "*")).hasSize(4));

            SystemTypeView type = types.createSystemType(new SystemTypeRequest().name(p + "lane")
                    .systemKey("attribute.device").groupKey("attribute.centerid").components(List.of(
                            new ComponentRequest1().componentType("lane").match("attribute.device_type==" + p + "lane"),
                            new ComponentRequest1().componentType("terminal")
                                    .match("attribute.device_type==" + p + "terminal"),
                            new ComponentRequest1().componentType("display")
                                    .match("attribute.device_type==" + p + "display"))));
            assertThat(type.getId()).isPositive();
            // a generated client changes one field: its model sends only what was set, as a JSON Merge Patch
            SystemTypeView held = types.patchSystemType(type.getId(), new SystemTypeRequest().guard("hold"));
            assertThat(held.getGuard()).isEqualTo("hold");
            assertThat(held.getGroupKey()).isEqualTo("attribute.centerid");
            assertThat(held.getComponents()).hasSize(3);
            assertThat(inventory.syncInventory().getDevices()).isGreaterThanOrEqualTo(4);
            assertThat(systems.listSystems(type.getId(), null, null, null, null, null, null).getTotal()).isEqualTo(1);

            ManifestView manifest = manifests.createManifest(new ManifestRequest().name(p + "2.0")
                    .systemTypeId(type.getId()).components(List.of(
                            new ComponentRequest().componentType("terminal").distributionSetId(term).order(1),
                            new ComponentRequest().componentType("display").distributionSetId(disp).order(1),
                            new ComponentRequest().componentType("lane").distributionSetId(app).order(2))));
            DeploymentView draft = deployments.createDeployment(new DeploymentRequest().name(p + "deployment")
                    .manifestId(manifest.getId()).groups(List.of("c01")).maxParallel(2).maxFailed(1));
            assertThat(draft.getState()).isEqualTo(DeploymentPhase.DRAFT);
            DeploymentView edited = deployments.patchDeployment(draft.getId(), new DeploymentRequest().maxParallel(3));
            assertThat(edited.getMaxParallel()).isEqualTo(3);
            assertThat(edited.getMaxFailed()).isEqualTo(1);
            assertThat(edited.getGroups()).containsExactly("c01");
            Plan plan = deployments.getDeploymentPlan(draft.getId());
            assertThat(plan.getSystems()).hasSize(1);

            deployments.startDeployment(draft.getId());
            await().atMost(WITHIN).pollInterval(Duration.ofMillis(500))
                    .until(() -> deployments.getDeployment(draft.getId()).getState() == DeploymentPhase.FINISHED);
            DeploymentView done = deployments.getDeployment(draft.getId());
            assertThat(done.getSummary()).isEqualTo("1 of 1 updated, 0 rolled back");
            assertThat(done.getEndedAt()).isNotNull();

            List<RunView> runs = deployments.listRuns(draft.getId());
            assertThat(runs).singleElement().satisfies(run -> {
                assertThat(run.getState()).isEqualTo(RunState.SUCCEEDED);
                assertThat(run.getRollbackCause()).isNull();
            });
            assertThat(deployments.listRunEvents(draft.getId(), runs.get(0).getId())).isNotEmpty();

            // a problem answer is one the client understands: the status, and the problem+json it documents
            assertThatThrownBy(() -> deployments.getDeployment(987_654_321L)).isInstanceOfSatisfying(
                    ApiException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(404);
                        assertThat(e.getResponseBody()).contains("\"status\":404");
                    });
            if (prism != null) {
                assertThat(flagged).as("answers Prism flagged (sl-violations)").isEmpty();
                assertThat(prism.output()).as("the tour went through Prism").contains("/start");
                // Prism logs after it answers: a request of ours it must refuse, logged last, and nothing before it
                theProxyDoesRefuseWhatBreaksTheDocument(prism, basic);
                assertThat(prism.violations()).as("Prism's log:%n%s", prism.output()).singleElement().asString()
                        .contains("UNPROCESSABLE_ENTITY");
            }
        } finally {
            if (prism != null) {
                prism.close();
            }
        }
    }

    /** A system type whose name is a number: Prism answers 422 itself and logs it, as it would any violation. */
    private static void theProxyDoesRefuseWhatBreaksTheDocument(PrismProxy prism, String basic) throws Exception {
        HttpResponse<String> refused = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                HttpRequest.newBuilder(prism.uri().resolve("/qawk/v1/systemtypes"))
                        .header("Authorization", "Basic " + basic).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"name\": 5, \"systemKey\": \"attribute.device\","
                                + " \"components\": []}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode()).isEqualTo(422);
        assertThat(refused.body()).contains("Request body property name must be");
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> prism.output().contains("UNPROCESSABLE_ENTITY"));
    }
}
