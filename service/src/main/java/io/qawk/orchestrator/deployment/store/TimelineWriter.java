package io.qawk.orchestrator.deployment.store;

import io.qawk.orchestrator.deployment.model.RunEventKind;
import io.qawk.orchestrator.deployment.model.TimelineEvent;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a transaction's timeline entries ({@code run_event}) in plain JDBC batches just before it commits, in the
 * same transaction ({@link BeforeCommit}). An engine pass writes thousands of entries and never reads them back.
 * <p>
 * Ids come from the table's sequence, one {@code nextval} per entry: the sequence counts in fifties, and each value
 * is the top of a range nobody else takes. Nothing reads entries in the transaction that writes them (only
 * {@code GET …/events} reads them).
 */
@Singleton
public class TimelineWriter {

    static final String INSERT = "insert into run_event (id, run_id, at, type, message, data, actor)"
            + " values (nextval('run_event_id_seq'), ?, ?, ?, ?, cast(? as jsonb), ?)";
    static final int BATCH = 500;

    @Inject
    BeforeCommit beforeCommit;

    @Inject
    ObjectMapper mapper;

    private volatile ObjectWriter events;

    private record Row(long runId, Instant at, RunEventKind kind, String message, String data, String actor) {
    }

    /** Records an entry of a run's timeline, written with the transaction's others just before it commits. */
    public void record(long runId, Instant at, TimelineEvent event, String actor) {
        add(runId, at, event.kind(), messageOf(event), json(event), actor);
    }

    /**
     * An event's fields as {@code run_event.data} stores them and the API hands them out: its record's components as
     * a JSON object, written by the application's {@link ObjectMapper} with nulls left out and times and durations as
     * their ISO text ({@code 2026-11-30T18:25:16Z}, {@code PT45S}).
     */
    public String json(TimelineEvent event) {
        ObjectWriter w = events;
        if (w == null) {
            w = eventWriter(mapper);
            events = w;
        }
        try {
            return w.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the fields of " + event.kind() + " as JSON", e);
        }
    }

    /** How events are written, from the application's mapper: the one place the stored form is set. */
    public static ObjectWriter eventWriter(ObjectMapper application) {
        return application.copy().setSerializationInclusion(JsonInclude.Include.NON_NULL)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
                .writer();
    }

    /** An event's message as stored: cut to fit the column. */
    public static String messageOf(TimelineEvent event) {
        String message = event.message();
        return message.length() > 3900 ? message.substring(0, 3900) + "…" : message;
    }

    /** Adds an entry to the current transaction's batch (there must be one). */
    void add(long runId, Instant at, RunEventKind kind, String message, String data, String actor) {
        beforeCommit.batch(Entries.class, Entries::new).rows.add(new Row(runId, at, kind, message, data, actor));
    }

    private static final class Entries implements BeforeCommit.Batch {

        final List<Row> rows = new ArrayList<>();

        @Override
        public boolean isEmpty() {
            return rows.isEmpty();
        }

        @Override
        public String what() {
            return "the run's timeline";
        }

        @Override
        public void clear() {
            rows.clear();
        }

        @Override
        public void write(Connection connection) throws SQLException {
            try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
                int pending = 0;
                for (Row r : rows) {
                    insert.setLong(1, r.runId());
                    insert.setTimestamp(2, Timestamp.from(r.at()));
                    insert.setString(3, r.kind().name());
                    insert.setString(4, r.message());
                    if (r.data() == null) {
                        insert.setNull(5, Types.VARCHAR);
                    } else {
                        insert.setString(5, r.data());
                    }
                    insert.setString(6, r.actor());
                    insert.addBatch();
                    if (++pending == BATCH) {
                        insert.executeBatch();
                        pending = 0;
                    }
                }
                if (pending > 0) {
                    insert.executeBatch();
                }
            }
        }
    }
}
