package io.qawk.orchestrator.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qawk.orchestrator.testkit.HawkbitServer;
import io.qawk.orchestrator.testkit.SharedHawkbit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** What {@code HawkbitFixtures} does not offer: a distribution set without its mandatory module (incomplete). */
public final class MgmtApi {

    private static final ObjectMapper JSON = new ObjectMapper();

    private MgmtApi() {
    }

    /** Creates (or finds) a set of DS type {@code os} without any module, so hawkBit reports it incomplete; its id. */
    public static long createIncompleteSet(String name, String version) {
        HawkbitServer h = SharedHawkbit.get();
        String q = URLEncoder.encode("name==\"" + name + "\";version==\"" + version + "\"", StandardCharsets.UTF_8);
        JsonNode found = send(h, HttpRequest.newBuilder(URI.create(h.baseUrl() + "/rest/v1/distributionsets?q=" + q))
                .GET()).path("content");
        if (found.size() > 0) {
            return found.get(0).path("id").asLong();
        }
        JsonNode created = send(h, HttpRequest.newBuilder(URI.create(h.baseUrl() + "/rest/v1/distributionsets"))
                .POST(HttpRequest.BodyPublishers.ofString("[{\"name\":\"" + name + "\",\"version\":\"" + version
                        + "\",\"type\":\"os\",\"requiredMigrationStep\":false}]"))).get(0);
        if (created.path("complete").asBoolean(true)) {
            throw new IllegalStateException("expected an incomplete set: " + created);
        }
        return created.path("id").asLong();
    }

    private static JsonNode send(HawkbitServer h, HttpRequest.Builder request) {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(request
                    .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                            (h.user() + ":" + h.password()).getBytes(StandardCharsets.UTF_8)))
                    .header("Content-Type", "application/json").header("Accept", "application/json").build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() / 100 != 2) {
                throw new IllegalStateException("hawkBit answered " + r.statusCode() + ": " + r.body());
            }
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
