package io.qawk.orchestrator.deployment.model;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import org.hibernate.annotations.ColumnTransformer;

import java.time.Instant;

/**
 * One entry of a run's timeline: its kind, its data and its words, as {@link TimelineEvent} gives them; {@code actor} is
 * the user for commands, null for the engine.
 */
@Entity
@Table(name = "run_event")
public class RunEvent extends PanacheEntityBase {

    /**
     * Ids come 50 at a time from the table's sequence (V6 makes it count in fifties), so Hibernate can send a pass's
     * thousands of events in batches instead of one round trip each. Events are listed by time, then id.
     */
    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "run_event_ids")
    @SequenceGenerator(name = "run_event_ids", sequenceName = "run_event_id_seq", allocationSize = 50)
    public Long id;

    @Column(name = "run_id", nullable = false)
    public long runId;

    @Column(nullable = false)
    public Instant at;

    /** What happened; its {@link #data} are the fields of the {@link TimelineEvent} record of that kind. */
    @Enumerated(EnumType.STRING)
    @Column(name = "type", nullable = false)
    public RunEventKind kind;

    /**
     * The event's fields as JSON text (a jsonb column; null for entries written before V11), written straight from the
     * record ({@link TimelineEvent#json}) and handed to the API as it is. As a mapped JSON value Hibernate kept a copy
     * of every event's data to check for changes and went through a JSON library both ways, a tenth of what an engine
     * pass allocated (docs/benchmarks.md, "Decisions the figures made"). Written once, never updated.
     */
    @ColumnTransformer(write = "cast(? as jsonb)")
    @Column(updatable = false, columnDefinition = "jsonb")
    public String data;

    @Column(nullable = false)
    public String message;

    public String actor;
}
