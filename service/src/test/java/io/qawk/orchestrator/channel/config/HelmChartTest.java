package io.qawk.orchestrator.channel.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.config.ConfigMapping;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.qawk.orchestrator.channel.config.ChartFiles.YAML;
import static io.qawk.orchestrator.channel.config.ChartFiles.fullValues;
import static io.qawk.orchestrator.channel.config.ChartFiles.minimalValues;
import static io.qawk.orchestrator.channel.config.ChartFiles.ofKind;
import static io.qawk.orchestrator.channel.config.ChartFiles.one;
import static io.qawk.orchestrator.channel.config.ChartFiles.project;
import static io.qawk.orchestrator.channel.config.ChartFiles.render;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Helm chart rendered and linted with the real Helm library, for the least values and for every switch on; and
 * what it renders checked against what the service really reads: environment variable names, port, health paths,
 * and the channels file. The Docker Compose file is checked the same way.
 */
class HelmChartTest {

    /** Variables of the image (run-java.sh of the UBI OpenJDK images), not of the service. */
    static final Set<String> IMAGE_VARIABLES = Set.of("JAVA_OPTS_APPEND");

    @Test
    void theChartRefusesToRenderWithoutTheRequiredValuesAndNamesThem() {
        assertThatThrownBy(() -> render(List.of(), Map.of())).hasMessageContaining("is required");
        assertThatThrownBy(() -> render(List.of(minimalValues()), Map.of("database.url", "")))
                .hasMessageContaining("database.url is required");
        assertThatThrownBy(() -> render(List.of(minimalValues()), Map.of("database.url", "jdbc:h2:mem:x")))
                .hasMessageContaining("database.url");
        assertThatThrownBy(() -> render(List.of(minimalValues()), Map.of("channels[0].name", "x",
                "channels[0].match", "tag==x", "channels[0].orchestrator.maxParallel", 0)))
                .hasMessageContaining("maxParallel");
    }

    @Test
    void defaultsWithTheRequiredValuesLintAndRender(@TempDir Path tmp) throws IOException {
        lint(ChartFiles.chartWithValues(minimalValues(), tmp));
        List<JsonNode> docs = render(List.of(minimalValues()), Map.of());

        assertThat(docs.stream().map(d -> d.path("kind").asText()).toList())
                .containsExactlyInAnyOrder("ServiceAccount", "ConfigMap", "ConfigMap", "Service", "Deployment");
        JsonNode container = checkDeployment(docs);
        assertThat(env(container)).containsEntry("QAWK_METRICS_REQUIRE_AUTH", "false")
                .containsKeys("QAWK_ADMIN_PASSWORD", "QAWK_VIEWER_PASSWORD").containsEntry("QAWK_BASIC_AUTH", "true")
                .doesNotContainKey("QAWK_OIDC_ISSUER");
        assertThat(one(docs, "Deployment").path("spec").path("replicas").asInt()).isGreaterThan(1);
        assertThat(channelsFile(docs)).isEmpty();
    }

    @Test
    void fullValuesLintAndRenderEverySwitch(@TempDir Path tmp) throws IOException {
        lint(ChartFiles.chartWithValues(fullValues(), tmp));
        List<JsonNode> docs = render(List.of(fullValues()), Map.of());

        assertThat(docs.stream().map(d -> d.path("kind").asText()).distinct().toList()).contains("Deployment", "Service",
                "ConfigMap", "ServiceAccount", "ServiceMonitor", "PrometheusRule", "PodDisruptionBudget");
        JsonNode container = checkDeployment(docs);
        assertThat(env(container)).containsEntry("QAWK_METRICS_REQUIRE_AUTH", "true")
                .containsEntry("QAWK_HAWKBIT_URL", "https://hawkbit.example.com")
                .containsEntry("QAWK_DB_URL", "jdbc:postgresql://postgres.db.svc:5432/qawk");
        assertThat(container.path("image").asText()).isEqualTo("registry.example.com/qawk/qawk-orchestrator:1.2.3");

        JsonNode monitor = one(docs, "ServiceMonitor").path("spec").path("endpoints").get(0);
        assertThat(monitor.path("path").asText()).isEqualTo("/q/metrics");
        assertThat(monitor.path("port").asText()).isEqualTo("http");
        assertThat(monitor.path("basicAuth").path("password").path("name").asText()).isEqualTo("qawk-metrics-scrape");

        JsonNode dashboards = ofKind(docs, "ConfigMap").stream()
                .filter(c -> c.path("metadata").path("name").asText().endsWith("-dashboards")).findFirst().orElseThrow();
        assertThat(dashboards.path("metadata").path("labels").path("grafana_dashboard").asText()).isEqualTo("1");
        try (Stream<Path> files = Files.list(ChartFiles.chart().resolve("dashboards"))) {
            List<String> names = files.map(p -> p.getFileName().toString()).toList();
            assertThat(names).hasSize(3);
            names.forEach(n -> assertThat(dashboards.path("data").has(n)).as(n).isTrue());
        }

        List<ChannelSpec> channels = channelsFile(docs);
        assertThat(channels).extracting(ChannelSpec::name).containsExactly("dev", "beta", "prod");
        assertThat(channels.get(0).promotesTo()).isEqualTo("beta");
        assertThat(channels.get(0).deviceBatchSize()).isEqualTo(200);
        assertThat(channels.get(1).centres()).containsExactly("c01", "c02");
        assertThat(channels.get(1).soakSeconds()).isEqualTo(86400);
        assertThat(channels.get(2).maxParallel()).isEqualTo(10);
        assertThat(channels.get(2).deviceMaxFailed()).isEqualTo(ChannelSpec.DEFAULT_DEVICE_MAX_FAILED);

        JsonNode rules = one(docs, "PrometheusRule").path("spec").path("groups").get(0).path("rules");
        List<String> alerts = new ArrayList<>();
        rules.forEach(r -> alerts.add(r.path("alert").asText()));
        assertThat(alerts).contains("QawkReleaseHalted", "QawkHawkbitUnreachable", "QawkEngineStalled", "QawkThreats",
                "QawkRecordsBehindHawkbit");
        rules.forEach(r -> assertThat(r.path("expr").asText()).as(r.path("alert").asText()).contains("namespace=\"ops\""));
    }

    @Test
    void theIdentityProvidersSettingsReachTheServiceTheClientSecretFromASecret() throws IOException {
        List<JsonNode> docs = render(List.of(minimalValues()), Map.of("users.existingSecret", "",
                "users.basicAuth", false, "oidc.issuer", "https://sso.example.com/realms/acme",
                "oidc.existingSecret", "qawk-oidc", "oidc.sessionSecretKey", "session-secret",
                "oidc.rolesClaim", "groups", "oidc.adminRoles", "sre"));
        JsonNode container = checkDeployment(docs);
        assertThat(env(container)).containsEntry("QAWK_OIDC_ISSUER", "https://sso.example.com/realms/acme")
                .containsEntry("QAWK_OIDC_CLIENT_ID", "qawk").containsEntry("QAWK_OIDC_ROLES_CLAIM", "groups")
                .containsEntry("QAWK_OIDC_ADMIN_ROLES", "sre").containsEntry("QAWK_BASIC_AUTH", "false")
                .doesNotContainKey("QAWK_ADMIN_PASSWORD");
        List<String> fromSecrets = new ArrayList<>();
        container.path("env").forEach(e -> {
            JsonNode ref = e.path("valueFrom").path("secretKeyRef");
            if (ref.path("name").asText().equals("qawk-oidc")) {
                fromSecrets.add(e.path("name").asText() + " " + ref.path("key").asText());
            }
        });
        assertThat(fromSecrets).containsExactlyInAnyOrder("QAWK_OIDC_CLIENT_SECRET client-secret",
                "QAWK_OIDC_SESSION_SECRET session-secret");
        assertThatThrownBy(() -> render(List.of(minimalValues()), Map.of("users.basicAuth", false)))
                .hasMessageContaining("oidc.issuer is required when users.basicAuth is false");
    }

    @Test
    void theComposeFileAndTheDockerfileUseWhatTheServiceReads() throws IOException {
        JsonNode compose = YAML.readTree(project().resolve("docker/compose.yaml").toFile());
        JsonNode qawk = compose.path("services").path("qawk");
        Set<String> known = knownVariables();
        List<String> names = new ArrayList<>();
        qawk.path("environment").fieldNames().forEachRemaining(names::add);
        assertThat(names).isNotEmpty().allSatisfy(n -> assertThat(known).as("variables the service reads").contains(n));
        assertThat(names).contains("QAWK_HAWKBIT_URL", "QAWK_DB_URL", "QAWK_ADMIN_PASSWORD");
        assertThat(qawk.path("environment").path("QAWK_DB_URL").asText()).startsWith("jdbc:postgresql://postgres:5432/");
        assertThat(qawk.path("environment").path("QAWK_HAWKBIT_URL").asText()).isEqualTo("http://hawkbit:8080");
        assertThat(qawk.path("ports").get(0).asText()).endsWith(":" + servicePort());
        assertThat(qawk.path("healthcheck").path("test").toString()).contains("/q/health/ready");
        assertThat(compose.path("services").path("hawkbit").path("image").asText()).startsWith("hawkbit/hawkbit-update-server:");

        assertThat(qawk.path("environment").path("QAWK_FLEETS_FILE").asText()).isEqualTo("/etc/qawk/channels.yaml");
        assertThat(ChannelsValidation.parse(Files.readString(project().resolve("docker/channels.yaml")), "docker/channels.yaml"))
                .extracting(ChannelSpec::name).containsExactly("beta", "prod");

        String dockerfile = Files.readString(project().resolve("docker/Dockerfile"));
        assertThat(dockerfile).contains("EXPOSE " + servicePort()).contains("USER 185").contains("target/quarkus-app/");
    }

    // ----------------------------------------------------------------------------------------------------------

    private static void lint(Path chart) {
        List<String> result = ChartFiles.lint(chart);
        assertThat(result.get(0)).as("helm lint --strict: %s", result).isEqualTo("OK");
    }

    /** Checks probes, port, security and environment names of the Deployment; returns its container. */
    private static JsonNode checkDeployment(List<JsonNode> docs) throws IOException {
        JsonNode pod = one(docs, "Deployment").path("spec").path("template").path("spec");
        JsonNode c = pod.path("containers").get(0);
        int port = servicePort();
        assertThat(c.path("ports").get(0).path("containerPort").asInt()).isEqualTo(port);
        assertThat(c.path("ports").get(0).path("name").asText()).isEqualTo("http");
        assertThat(env(c)).containsEntry("QAWK_PORT", String.valueOf(port));

        String health = healthRoot();
        assertThat(c.path("livenessProbe").path("httpGet").path("path").asText()).isEqualTo(health + "/live");
        assertThat(c.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo(health + "/ready");
        assertThat(c.path("startupProbe").path("httpGet").path("path").asText()).isEqualTo(health + "/live");
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            assertThat(c.path(probe).path("httpGet").path("port").asText()).isEqualTo("http");
        }
        JsonNode service = one(docs, "Service");
        assertThat(service.path("spec").path("ports").get(0).path("targetPort").asText()).isEqualTo("http");

        Set<String> known = knownVariables();
        Map<String, JsonNode> env = new LinkedHashMap<>();
        c.path("env").forEach(e -> env.put(e.path("name").asText(), e));
        assertThat(env.keySet()).allSatisfy(n -> assertThat(known).as("variables the service or image reads").contains(n));
        assertThat(env).containsKeys("QAWK_HAWKBIT_PASSWORD", "QAWK_DB_PASSWORD");
        for (String secret : List.of("QAWK_HAWKBIT_PASSWORD", "QAWK_DB_PASSWORD", "QAWK_ADMIN_PASSWORD", "QAWK_VIEWER_PASSWORD",
                "QAWK_OIDC_CLIENT_SECRET", "QAWK_OIDC_SESSION_SECRET")) {
            if (!env.containsKey(secret)) {
                continue; // the users' passwords without basic auth, the provider's secrets without a provider
            }
            assertThat(env.get(secret).path("valueFrom").path("secretKeyRef").path("name").asText()).as(secret).isNotEmpty();
            assertThat(env.get(secret).has("value")).as(secret + " never as plain value").isFalse();
        }

        assertThat(pod.path("securityContext").path("runAsNonRoot").asBoolean()).isTrue();
        assertThat(c.path("securityContext").path("readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(c.path("securityContext").path("allowPrivilegeEscalation").asBoolean(true)).isFalse();
        assertThat(c.path("securityContext").path("capabilities").path("drop").toString()).contains("ALL");
        JsonNode tmp = null;
        for (JsonNode m : c.path("volumeMounts")) {
            if (m.path("mountPath").asText().equals("/tmp")) {
                tmp = m;
            }
        }
        assertThat(tmp).as("an emptyDir on /tmp").isNotNull();
        String tmpVolume = tmp.path("name").asText();
        pod.path("volumes").forEach(v -> {
            if (v.path("name").asText().equals(tmpVolume)) {
                assertThat(v.has("emptyDir")).isTrue();
            }
        });
        String channelsFile = env.get("QAWK_FLEETS_FILE").path("value").asText();
        boolean mounted = false;
        for (JsonNode m : c.path("volumeMounts")) {
            mounted |= channelsFile.equals(m.path("mountPath").asText() + "/channels.yaml");
        }
        assertThat(mounted).as("QAWK_FLEETS_FILE is on a mounted volume").isTrue();
        return c;
    }

    private static Map<String, String> env(JsonNode container) {
        Map<String, String> out = new LinkedHashMap<>();
        container.path("env").forEach(e -> out.put(e.path("name").asText(), e.path("value").asText(null)));
        return out;
    }

    private static List<ChannelSpec> channelsFile(List<JsonNode> docs) {
        JsonNode cm = ofKind(docs, "ConfigMap").stream()
                .filter(c -> c.path("metadata").path("name").asText().endsWith("-channels")).findFirst().orElseThrow();
        return ChannelsValidation.parse(cm.path("data").path("channels.yaml").asText(), "rendered ConfigMap");
    }

    // --------------------------------------------------------------------- what the service reads, from its sources

    private static String properties() throws IOException {
        return Files.readString(project().resolve("service/src/main/resources/application.properties"));
    }

    /** The HTTP port: the default of {@code quarkus.http.port=${QAWK_PORT:8080}}. */
    static int servicePort() throws IOException {
        Matcher m = Pattern.compile("(?m)^quarkus\\.http\\.port=\\$\\{QAWK_PORT:(\\d+)}").matcher(properties());
        assertThat(m.find()).as("quarkus.http.port in application.properties").isTrue();
        return Integer.parseInt(m.group(1));
    }

    /** SmallRye Health's root under the non-application root (both defaults unless application.properties says). */
    static String healthRoot() throws IOException {
        String p = properties();
        assertThat(p).doesNotContain("quarkus.smallrye-health.root-path").doesNotContain("quarkus.http.non-application-root-path")
                .doesNotContain("quarkus.management.enabled=true");
        return "/q/health";
    }

    /**
     * Environment variables the service reads: the {@code ${QAWK_...}} placeholders of application.properties, every
     * property of a {@code @ConfigMapping} interface in the build (as SmallRye maps {@code qawk.engine.interval} to
     * {@code QAWK_ENGINE_INTERVAL}), and the image's own.
     */
    static Set<String> knownVariables() throws IOException {
        Set<String> known = new TreeSet<>(IMAGE_VARIABLES);
        Matcher m = Pattern.compile("\\$\\{(QAWK_[A-Z0-9_]+)").matcher(properties());
        while (m.find()) {
            known.add(m.group(1));
        }
        Path classes = project().resolve("service/target/classes");
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String name = classes.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> type;
                try {
                    type = Class.forName(name, false, HelmChartTest.class.getClassLoader());
                } catch (ClassNotFoundException | LinkageError e) {
                    continue;
                }
                ConfigMapping mapping = type.getAnnotation(ConfigMapping.class);
                if (mapping != null) {
                    addMapping(known, mapping.prefix(), type);
                }
            }
        }
        assertThat(known).contains("QAWK_HAWKBIT_URL", "QAWK_ENGINE_INTERVAL", "QAWK_FLEETS_FILE", "QAWK_METRICS_REQUIRE_AUTH");
        return known;
    }

    private static void addMapping(Set<String> known, String prefix, Class<?> type) {
        for (Method method : type.getMethods()) {
            if (method.getParameterCount() != 0 || method.isDefault() || Modifier.isStatic(method.getModifiers())) {
                continue;
            }
            String property = prefix + "." + method.getName().replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
            if (method.getReturnType().isInterface() && method.getReturnType().getName().startsWith("io.qawk")) {
                addMapping(known, property, method.getReturnType());
            } else {
                known.add(property.toUpperCase().replaceAll("[^A-Z0-9]", "_"));
            }
        }
    }
}
