package io.qawk.orchestrator.analysis;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/**
 * The Prometheus metric gates ask ({@code qawk.prometheus.*}). Unset, no deployment or channel may have a metric gate
 * (it is refused with a 400 saying so); everything else works as without one.
 */
@ConfigMapping(prefix = "qawk.prometheus")
public interface PrometheusConfig {

    /** Base URL of Prometheus' HTTP API, e.g. {@code http://prometheus:9090} (without {@code /api/v1}). */
    Optional<String> url();

    /** How long one query may take, connecting included; also sent to Prometheus as the query's own timeout. */
    @WithDefault("5s")
    Duration timeout();
}
