package io.qawk.orchestrator.testsupport;

import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * What Quarkus does with Micrometer when one JVM starts the application again: the injected registry is the global
 * composite, which keeps its meters; the one scraped is a registry added to it at start and removed at stop.
 */
public final class QuarkusRegistries {

    private QuarkusRegistries() {
    }

    /** At start: a new registry to scrape, added to the global composite. */
    public static SimpleMeterRegistry started(CompositeMeterRegistry global) {
        SimpleMeterRegistry scrape = new SimpleMeterRegistry();
        global.add(scrape);
        return scrape;
    }

    /** At stop outside dev mode: the scraped registry closed and removed, the composite's meters kept. */
    public static void stop(CompositeMeterRegistry global, SimpleMeterRegistry scrape) {
        global.remove(scrape);
        scrape.close();
    }
}
