package io.qawk.orchestrator.analysis;

import java.util.List;
import java.util.Map;

/** What Prometheus made of one instant query ({@link PrometheusClient#query}). */
sealed interface PrometheusAnswer {

    /** One sample of the result: its labels ({@code {}} for a scalar) and its value. */
    record Sample(Map<String, String> labels, double value) {
    }

    /** The query gave numbers: an instant vector (any number of series, none included) or a scalar (one). */
    record Numbers(List<Sample> samples) implements PrometheusAnswer {
    }

    /** The query gave no number: a range vector ({@code matrix}) or a string. */
    record NotNumbers(String resultType) implements PrometheusAnswer {
    }

    /** Prometheus refused the query itself ({@code 400 bad_data}: it does not parse, or a parameter is wrong). */
    record Rejected(String error) implements PrometheusAnswer {
    }

    /** No usable answer: not reachable, too slow, 5xx or 422 (the query failed to run), or not its API's JSON. */
    record Unavailable(String why) implements PrometheusAnswer {
    }
}
