package io.qawk.orchestrator.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.quarkus.runtime.ExecutionMode;
import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigValue;

/** When demo mode starts a hawkBit, and that it stays out of the way otherwise (no hawkBit is started here). */
class DemoHawkbitConfigSourceFactoryTest {

    @Test
    void startsOnlyWhenEnabledWithoutAUrlWhileTheApplicationStarts() {
        Optional<String> on = Optional.of("true");
        Optional<String> noUrl = Optional.empty();
        assertThat(DemoHawkbitConfigSourceFactory.shouldStart(on, noUrl, ExecutionMode.RUNTIME_INIT)).isTrue();
        assertThat(DemoHawkbitConfigSourceFactory.shouldStart(Optional.of(" TRUE "), noUrl, ExecutionMode.RUNTIME_INIT))
                .isTrue();

        // a configured hawkBit always wins
        assertThat(DemoHawkbitConfigSourceFactory.shouldStart(on, Optional.of("http://hawkbit:8080"),
                ExecutionMode.RUNTIME_INIT)).isFalse();
        // off unless switched on (prod and test profiles)
        assertThat(DemoHawkbitConfigSourceFactory.shouldStart(Optional.empty(), noUrl, ExecutionMode.RUNTIME_INIT))
                .isFalse();
        assertThat(DemoHawkbitConfigSourceFactory.shouldStart(Optional.of("false"), noUrl, ExecutionMode.RUNTIME_INIT))
                .isFalse();
        // Quarkus reads the configuration while it builds the application, too
        assertThat(DemoHawkbitConfigSourceFactory.shouldStart(on, noUrl, ExecutionMode.UNSET)).isFalse();
    }

    @Test
    void providesNothingOutsideARunningApplicationEvenWhenEnabled() {
        // a plain unit test runs outside Quarkus: ExecutionMode is UNSET, as during the build
        assertThat(ExecutionMode.current()).isEqualTo(ExecutionMode.UNSET);
        var factory = new DemoHawkbitConfigSourceFactory();
        assertThat(factory.getConfigSources(context(Map.of("qawk.demo.enabled", "true")))).isEmpty();
        assertThat(factory.getConfigSources(context(Map.of()))).isEmpty();
    }

    @Test
    void runningServerNoteRoundTripsAndNeverShowsThePassword() {
        var r = new DemoHawkbitConfigSourceFactory.Running("http://127.0.0.1:4242", "qawk-admin", "s3cr3t-pw",
                "DEFAULT", 1234L);
        assertThat(DemoHawkbitConfigSourceFactory.Running.decode(r.encode())).contains(r);
        assertThat(r.toString()).contains("127.0.0.1:4242", "qawk-admin").doesNotContain("s3cr3t-pw");
        assertThat(DemoHawkbitConfigSourceFactory.Running.decode("")).isEmpty();
        assertThat(DemoHawkbitConfigSourceFactory.Running.decode(null)).isEmpty();
        assertThat(DemoHawkbitConfigSourceFactory.Running.decode("a\nb\nc\nd\nnot-a-pid")).isEmpty();
    }

    @Test
    void projectDirIsTheConfiguredOneOrTheNearestWithTheHawkbitSources() {
        assertThat(DemoHawkbitConfigSourceFactory.projectDir("/srv/qawk")).isEqualTo(Path.of("/srv/qawk"));
        Path found = DemoHawkbitConfigSourceFactory.projectDir(null);
        assertThat(found.resolve("src/it/hawkbit-server")).isDirectory();
    }

    private static ConfigSourceContext context(Map<String, String> values) {
        return new ConfigSourceContext() {
            @Override
            public ConfigValue getValue(String name) {
                String v = values.get(name);
                return v == null ? null : ConfigValue.builder().withName(name).withValue(v).build();
            }

            @Override
            public List<String> getProfiles() {
                return List.of("dev");
            }

            @Override
            public Iterator<String> iterateNames() {
                return values.keySet().iterator();
            }
        };
    }
}
