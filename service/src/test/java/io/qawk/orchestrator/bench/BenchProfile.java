package io.qawk.orchestrator.bench;

import io.qawk.orchestrator.testkit.scale.ScaleHawkbit;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import io.qawk.orchestrator.observation.EngineConfig;
import io.qawk.orchestrator.hawkbit.HawkbitConfig;
import io.qawk.orchestrator.inventory.InventoryConfig;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The service against the {@link ScaleHawkbit} double, with nothing scheduled: the benchmark itself runs every
 * inventory sync ({@code InventorySync.syncNow()}) and engine pass ({@code DeploymentEngine.passAll()}). No global
 * test resources (the real hawkBit is not started).
 * <p>
 * Settings that {@code application.properties} changes for tests ({@code %test.qawk.*}, e.g. small observation
 * chunks or fast metric refreshes) are put back to their production values, so the benchmark measures the service as
 * it is deployed: see {@link #productionValues()}.
 */
public class BenchProfile implements QuarkusTestProfile {

    /** What the benchmark sets itself (with and without the %test profile). */
    public static final Map<String, String> BENCHMARK_SETTINGS = settings();

    private static Map<String, String> settings() {
        Map<String, String> c = new TreeMap<>();
        for (String prefix : List.of("", "%test.")) {
            c.put(prefix + "qawk.inventory.sync-interval", "1h");
            c.put(prefix + "qawk.inventory.initial-delay", "1h");
            c.put(prefix + "qawk.engine.interval", "1h");
            c.put(prefix + "qawk.engine.initial-delay", "1h");
            // a step cut short at its deadline makes the double answer 503: be quick to try again afterwards
            c.put(prefix + "qawk.hawkbit.circuit-breaker-delay", "2s");
        }
        return Collections.unmodifiableMap(c);
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> c = new HashMap<>(productionValues());
        c.putAll(BENCHMARK_SETTINGS);
        return c;
    }

    /**
     * For every {@code %test.qawk.*} setting of {@code application.properties} (the embedded database's aside): the
     * value without profile in the same file, else the {@code @WithDefault} of the config mapping that owns it.
     */
    public static Map<String, String> productionValues() {
        Properties p = new Properties();
        try (InputStream in = BenchProfile.class.getClassLoader().getResourceAsStream("application.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> out = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            if (!key.startsWith("%test.qawk.") || key.startsWith("%test.qawk.embedded-db.")) {
                continue;
            }
            String base = key.substring("%test.".length());
            String value = p.getProperty(base);
            if (value == null) {
                value = mappingDefault(base);
            }
            if (value != null) {
                out.put(key, value);
            }
        }
        return out;
    }

    private static String mappingDefault(String property) {
        for (Class<?> mapping : List.of(EngineConfig.class, InventoryConfig.class, HawkbitConfig.class)) {
            String prefix = mapping.getAnnotation(ConfigMapping.class).prefix() + ".";
            if (!property.startsWith(prefix)) {
                continue;
            }
            String name = property.substring(prefix.length());
            for (Method m : mapping.getMethods()) {
                WithDefault d = m.getAnnotation(WithDefault.class);
                if (d != null && kebab(m.getName()).equals(name)) {
                    return d.value();
                }
            }
        }
        return null;
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(ScaleHawkbitResource.class));
    }

    @Override
    public boolean disableGlobalTestResources() {
        return true;
    }

    /** The same, as a separate application (own database) for the small benchmark of the normal test run. */
    public static class Smoke extends BenchProfile {
    }

    /** The same, as a separate application (own double and database) for the guard's benchmark. */
    public static class Guard extends BenchProfile {
    }
}
