package io.qawk.orchestrator.testkit.scale;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.sun.net.httpserver.HttpExchange;

/**
 * What the double does to imitate a real hawkBit's costs and failures: extra time per answer, 503 for every request
 * (hawkBit down, used to cut a step short at its deadline) and Tomcat's limit on the size of request headers.
 */
final class Faults {

    private volatile Duration latency = Duration.ZERO;
    private volatile boolean unavailable;
    private volatile int maxHeaderBytes = 8192;

    void latency(Duration value) {
        latency = value;
    }

    void unavailable(boolean value) {
        unavailable = value;
    }

    void maxHeaderBytes(int value) {
        maxHeaderBytes = value;
    }

    boolean unavailable() {
        return unavailable;
    }

    /** Throws 400 when request line + headers are longer than the limit (as Tomcat under hawkBit answers). */
    void checkHeaderSize(HttpExchange ex) {
        int headerBytes = ex.getRequestMethod().length() + ex.getRequestURI().toString().length() + 12;
        for (Map.Entry<String, List<String>> h : ex.getRequestHeaders().entrySet()) {
            for (String v : h.getValue()) {
                headerBytes += h.getKey().length() + v.length() + 4;
            }
        }
        int limit = maxHeaderBytes;
        if (headerBytes > limit) {
            throw new HttpError(400, "scale.double.headerTooLarge", "Request header is too large (" + headerBytes
                    + " bytes; Tomcat's limit is " + limit + ")");
        }
    }

    /** Sleeps the configured latency, if any. */
    void delay() {
        Duration extra = latency;
        if (!extra.isZero()) {
            try {
                Thread.sleep(extra.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
