package io.qawk.orchestrator.analysis;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.qawk.orchestrator.common.FieldErrors;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The metric gate, as the rest of the service uses it: {@link #check} a gate given in a request (deployment or
 * channel), and {@link #verdict} for one system during its soak. The soak calls {@code verdict} and acts on it:
 * {@code FAILED} rolls the system back with {@link Verdict#reason()} as the reason; {@code INCONCLUSIVE} never does.
 * <p>
 * Every evaluation is timed in {@code qawk.metric_gate.evaluations} (tag {@code outcome}: passed, failed,
 * inconclusive), so an operator can alert on gates that cannot be judged.
 */
@ApplicationScoped
public class MetricGates {

    private static final Logger LOG = Logger.getLogger(MetricGates.class);

    static final String METRIC = "qawk.metric_gate.evaluations";
    /** What the placeholders are filled with when a new gate's query is shown to Prometheus. */
    static final String CHECK_VALUE = "qawk-check";

    private final PrometheusConfig config;
    private final MeterRegistry registry;
    private volatile PrometheusClient client;

    @Inject
    public MetricGates(PrometheusConfig config, MeterRegistry registry) {
        this.config = config;
        this.registry = registry;
    }

    /** Whether a Prometheus is configured ({@code qawk.prometheus.url}). */
    public boolean configured() {
        return config.url().filter(u -> !u.isBlank()).isPresent();
    }

    /**
     * Checks a gate given in a request, adding what is wrong to {@code errors} under {@code field} (e.g.
     * {@code metricGate.condition}); a null gate is no gate and fine. When the gate is well formed and a Prometheus
     * is configured, its query (placeholders filled with {@value #CHECK_VALUE}) is shown to Prometheus once: a query
     * Prometheus rejects, or one that gives a range vector, is refused here rather than found out during a soak. A
     * Prometheus that cannot be reached does not refuse the gate (the query is then unchecked, and logged so).
     */
    public void check(MetricGate gate, String field, FieldErrors errors) {
        if (gate == null) {
            return;
        }
        boolean ok = true;
        if (errors.text(gate.query(), field + ".query", PromqlTemplate.MAX_LENGTH)) {
            Optional<String> problem = PromqlTemplate.problem(gate.query());
            problem.ifPresent(p -> errors.add(field + ".query", p));
            ok = problem.isEmpty();
        } else {
            ok = false;
        }
        if (gate.condition() == null || gate.condition().isBlank()) {
            errors.add(field + ".condition", "is required");
            ok = false;
        } else if (Condition.parse(gate.condition()).isEmpty()) {
            errors.add(field + ".condition", Condition.RULE + " (got \"" + abbreviate(gate.condition()) + "\")");
            ok = false;
        }
        if (!configured()) {
            errors.add(field, "needs a Prometheus to ask, and none is configured: set qawk.prometheus.url "
                    + "(QAWK_PROMETHEUS_URL), or leave the metric gate out");
            return;
        }
        if (!ok) {
            return;
        }
        PrometheusClient prometheus;
        try {
            prometheus = client();
        } catch (IllegalArgumentException e) {
            errors.add(field, "needs a Prometheus to ask, and " + e.getMessage());
            return;
        }
        PrometheusAnswer answer = prometheus.query(PromqlTemplate.fill(gate.query(), CHECK_VALUE, CHECK_VALUE));
        if (answer instanceof PrometheusAnswer.Rejected r) {
            errors.add(field + ".query", "Prometheus rejects it: " + r.error());
        } else if (answer instanceof PrometheusAnswer.NotNumbers n) {
            errors.add(field + ".query", "gives " + ("matrix".equals(n.resultType()) ? "a range vector" : "a "
                    + n.resultType()) + "; it must give a number (an instant vector or a scalar)");
        } else if (answer instanceof PrometheusAnswer.Unavailable u) {
            LOG.infof("metric gate query accepted unchecked: %s", u.why());
        }
    }

    /**
     * What the gate says about one system now: its query with {@code {system}} and {@code {centre}} filled in
     * ({@code centre} null counts as empty), asked of Prometheus once, and its answer judged by the condition. Never
     * throws: a gate that cannot be evaluated (no Prometheus configured any more, a stored gate no longer readable)
     * is {@code INCONCLUSIVE} with the reason.
     */
    public Verdict verdict(MetricGate gate, String system, String centre) {
        return verdicts(gate, List.of(new Subject(system, centre))).get(0);
    }

    /** A system a gate is asked about: its name and its centre (null: none). */
    public record Subject(String system, String centre) {
    }

    /**
     * The gate's verdict for each subject, in their order, as {@link #verdict} gives it for one. Once Prometheus
     * could not be reached or did not answer in time, the subjects after it are {@code INCONCLUSIVE} with the same
     * reason without being asked: one pass over many soaking systems must not wait a timeout for each of them.
     */
    public List<Verdict> verdicts(MetricGate gate, List<Subject> subjects) {
        List<Verdict> out = new ArrayList<>(subjects.size());
        String away = null;
        for (Subject s : subjects) {
            long start = System.nanoTime();
            PrometheusAnswer[] answer = new PrometheusAnswer[1];
            Verdict v = evaluate(gate, s.system(), s.centre(), away, answer);
            if (answer[0] instanceof PrometheusAnswer.Unavailable u) {
                away = u.why();
            }
            Timer.builder(METRIC).description("Metric gate evaluations, by outcome")
                    .tag("outcome", v.outcome().name().toLowerCase(Locale.ROOT))
                    .register(registry).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            LOG.debugf("%s (system %s)", v.reason(), s.system());
            out.add(v);
        }
        return out;
    }

    private Verdict evaluate(MetricGate gate, String system, String centre, String away, PrometheusAnswer[] answer) {
        String template = gate.query();
        Optional<Condition> condition = Condition.parse(gate.condition());
        if (template == null || condition.isEmpty() || PromqlTemplate.problem(template).isPresent()) {
            return Verdict.inconclusive(String.valueOf(template), "the gate cannot be read (query "
                    + abbreviate(String.valueOf(template)) + ", condition " + abbreviate(String.valueOf(gate.condition()))
                    + ")");
        }
        String query = PromqlTemplate.fill(template, system, centre);
        if (!configured()) {
            return Verdict.inconclusive(query, "no Prometheus is configured (qawk.prometheus.url)");
        }
        PrometheusClient prometheus;
        try {
            prometheus = client();
        } catch (IllegalArgumentException e) {
            return Verdict.inconclusive(query, e.getMessage());
        }
        if (away != null) {
            return Verdict.inconclusive(query, away);
        }
        answer[0] = prometheus.query(query);
        return Verdict.judge(query, condition.get(), answer[0]);
    }

    private PrometheusClient client() {
        PrometheusClient c = client;
        if (c == null) {
            synchronized (this) {
                if (client == null) {
                    client = new PrometheusClient(config.url().orElseThrow(), config.timeout());
                }
                c = client;
            }
        }
        return c;
    }

    private static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "…" : s;
    }
}
