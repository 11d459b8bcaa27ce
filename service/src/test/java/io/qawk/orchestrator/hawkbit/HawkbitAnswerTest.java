package io.qawk.orchestrator.hawkbit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Which hawkBit answers are a refusal of the request, which only say hawkBit cannot be used now (issue 14). */
class HawkbitAnswerTest {

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(nullValues = "-", textBlock = """
            200, -,                                                 OK
            201, -,                                                 OK
            204, -,                                                 OK
            500, -,                                                 RETRY
            502, -,                                                 RETRY
            503, -,                                                 RETRY
            504, -,                                                 RETRY
            429, -,                                                 RETRY
            408, -,                                                 RETRY
            423, hawkbit.server.error.entitiylocked,                RETRY
            409, hawkbit.server.error.repo.concurrentModification,  RETRY
            302, -,                                                 RETRY
            100, -,                                                 RETRY
            401, -,                                                 NOT_ALLOWED
            407, -,                                                 NOT_ALLOWED
            403, -,                                                 NOT_ALLOWED
            403, hawkbit.server.error.insufficientpermission,       NOT_ALLOWED
            403, hawkbit.server.error.quota.tooManyEntries,         REFUSED
            403, hawkbit.server.error.repo.entitiyReadOnly,         REFUSED
            404, hawkbit.server.error.repo.entitiyNotFound,         REFUSED
            404, -,                                                 REFUSED
            400, hawkbit.server.error.distributionset.incomplete,   REFUSED
            400, hawkbit.server.error.targettype.incompatible,      REFUSED
            409, hawkbit.server.error.repo.entitiyAlreayExists,     REFUSED
            409, -,                                                 REFUSED
            410, hawkbit.server.error.operation.notSupported,       REFUSED
            422, -,                                                 REFUSED
            """)
    void classifies(int status, String errorCode, HawkbitAnswer expected) {
        assertThat(HawkbitAnswer.of(status, errorCode)).isEqualTo(expected);
        assertThat(HawkbitAnswer.of(status, errorCode).retry()).isEqualTo(expected == HawkbitAnswer.RETRY);
    }
}
