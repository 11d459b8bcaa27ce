package io.qawk.orchestrator.common;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gauge registered through {@link OwnedMeters} is read from the object it was registered with, even when a gauge of
 * the same name and tags is still in the registry (left by an earlier application in this JVM); and its owner takes
 * it out again, from the registries below the composite too.
 */
class OwnedMetersTest {

    @Test
    void aGaugeLeftByAnEarlierOwnerIsReplacedAndOnlyThatOne() {
        CompositeMeterRegistry global = new CompositeMeterRegistry();
        AtomicLong earlier = new AtomicLong(5);
        AtomicLong other = new AtomicLong(9);
        new OwnedMeters(global).register(Gauge.builder("qawk.x", earlier, AtomicLong::get).tag("fleet", "a")::register);
        new OwnedMeters(global).register(Gauge.builder("qawk.x", other, AtomicLong::get).tag("fleet", "b")::register);
        SimpleMeterRegistry scrape = new SimpleMeterRegistry();
        global.add(scrape);

        AtomicLong current = new AtomicLong(1);
        Gauge g = new OwnedMeters(global).register(Gauge.builder("qawk.x", current, AtomicLong::get).tag("fleet", "a")::register);

        assertThat(g.value()).isEqualTo(1);
        assertThat(scrape.get("qawk.x").tag("fleet", "a").gauge().value()).isEqualTo(1);
        assertThat(scrape.get("qawk.x").tag("fleet", "b").gauge().value()).as("another name and tags stay").isEqualTo(9);
    }

    @Test
    void removeAllTakesTheOwnersMetersOutOfEveryRegistry() {
        CompositeMeterRegistry global = new CompositeMeterRegistry();
        SimpleMeterRegistry scrape = new SimpleMeterRegistry();
        global.add(scrape);
        AtomicLong mine = new AtomicLong(3);
        AtomicLong notMine = new AtomicLong(4);
        OwnedMeters owned = new OwnedMeters(global);
        owned.register(Gauge.builder("qawk.mine", mine, AtomicLong::get)::register);
        global.gauge("qawk.other", notMine);

        owned.removeAll();

        assertThat(global.find("qawk.mine").gauges()).isEmpty();
        assertThat(scrape.find("qawk.mine").gauges()).isEmpty();
        assertThat(scrape.get("qawk.other").gauge().value()).isEqualTo(4);
    }
}
