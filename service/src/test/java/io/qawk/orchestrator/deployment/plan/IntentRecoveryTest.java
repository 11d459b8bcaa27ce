package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.hawkbit.ActionOutcome;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Intents hawkBit never confirmed: the device's actions as hawkBit lists them decide whether its action is adopted
 * (nothing assigned twice) or the assignment is sent again. The intent sends set 7 and was decided at 10:00:00.
 *
 * <p>Actions are written {@code id@mm:ss[:set]} (created at 10:mm:ss, set named by hawkBit or not); {@code device}
 * is what hawkBit says when the newest action names no set: {@code OUTCOME[/assigned][/installed]} ({@code -} for
 * none), or {@code never} when it must not be asked.
 */
class IntentRecoveryTest {

    static final Instant DECIDED = Instant.parse("2026-11-30T10:00:00Z");
    static final long SET = 7;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # case                                                   | back  | forward | actions                  | device           | adopted
            hawkBit has no action: send again                        | false |         |                          | never            |
            hawkBit's action for the set: adopt                      | false |         | 41@00:02:7               | never            | 41
            hawkBit's newest action is for another set: send again   | false |         | 41@00:02:8               | never            |
            only the newest counts, an older one of the set does not | false |         | 40@00:01:7 41@00:02:8    | never            |
            the newest is taken whatever the order listed            | false |         | 42@00:03:7 41@00:02:8    | never            | 42
            older than the intent: an earlier attempt, send again    | false |         | 41@-05:00:7              | never            |
            within the clock skew of the intent: adopt               | false |         | 41@-00:59:7              | never            | 41
            just past the clock skew: send again                     | false |         | 41@-01:01:7              | never            |
            exactly the clock skew: adopt                            | false |         | 41@-01:00:7              | never            | 41
            going back: hawkBit's action for the old set, adopt      | true  | 30      | 30@-10:00:9 41@00:02:7   | never            | 41
            going back: only the forward action, send again          | true  | 30      | 30@00:01:7               | never            |
            going back, forward unknown: its newest for the set      | true  |         | 30@00:01:7               | never            | 30
            old hawkBit, open action, assigned the set: adopt        | false |         | 41@00:02                 | RUNNING/7/-      | 41
            old hawkBit, open action, assigned another set           | false |         | 41@00:02                 | RUNNING/8/-      |
            old hawkBit, open action, nothing assigned               | false |         | 41@00:02                 | RUNNING/-/-      |
            old hawkBit, finished action, installed the set: adopt   | false |         | 41@00:02                 | SUCCEEDED/-/7    | 41
            old hawkBit, finished action, installed another set      | false |         | 41@00:02                 | SUCCEEDED/-/8    |
            old hawkBit, finished action, assigned the set only      | false |         | 41@00:02                 | SUCCEEDED/7/8    |
            old hawkBit, failed action: adopt (the run sees it fail) | false |         | 41@00:02                 | FAILED/-/-       | 41
            old hawkBit, canceled action: adopt                      | false |         | 41@00:02                 | CANCELED/-/-     | 41
            old hawkBit, going back, failed, forward known: adopt    | true  | 30      | 30@-10:00 41@00:02       | FAILED/-/-       | 41
            old hawkBit, going back, failed, forward unknown         | true  |         | 41@00:02                 | FAILED/-/-       |
            old hawkBit, going back, open, assigned the old set      | true  | 30      | 30@-10:00 41@00:02       | RUNNING/7/-      | 41
            old hawkBit, too old to be it: not even asked            | false |         | 41@-05:00                | never            |
            """)
    void adoptsHawkbitsActionOrSendsAgain(String name, boolean back, Long forward, String actions, String device,
                                          Long adopted) {
        IntentRecovery.Intent intent = new IntentRecovery.Intent(SET, back, DECIDED, forward);
        AtomicInteger asked = new AtomicInteger();
        Optional<IntentRecovery.Action> result = IntentRecovery.adopted(intent, actions(actions), a -> {
            asked.incrementAndGet();
            return device(device);
        });
        assertThat(result.map(IntentRecovery.Action::id)).as(name).isEqualTo(Optional.ofNullable(adopted));
        if (device.equals("never")) {
            assertThat(asked).as(name + ": the device's state is not asked").hasValue(0);
        } else {
            assertThat(asked).as(name + ": the device's state is asked once").hasValue(1);
        }
    }

    @ParameterizedTest(name = "intent decided at an unknown time, action {0}")
    @CsvSource({"41@-05:00:7, 41", "41@-05:00:8, "})
    void anIntentOfUnknownTimeTakesTheNewestAction(String actions, Long adopted) {
        IntentRecovery.Intent intent = new IntentRecovery.Intent(SET, false, null, null);
        assertThat(IntentRecovery.adopted(intent, actions(actions), a -> {
            throw new AssertionError("not asked");
        }).map(IntentRecovery.Action::id)).isEqualTo(Optional.ofNullable(adopted));
    }

    /** {@code id@mm:ss[:set]}, minutes and seconds after (or, with a minus, before) the intent. */
    private static List<IntentRecovery.Action> actions(String specs) {
        List<IntentRecovery.Action> out = new ArrayList<>();
        if (specs == null || specs.isBlank()) {
            return out;
        }
        for (String spec : specs.trim().split("\\s+")) {
            String[] idAndRest = spec.split("@");
            String[] parts = idAndRest[1].split(":");
            boolean before = parts[0].startsWith("-");
            long seconds = Math.abs(Long.parseLong(parts[0])) * 60 + Long.parseLong(parts[1]);
            Instant created = before ? DECIDED.minusSeconds(seconds) : DECIDED.plusSeconds(seconds);
            out.add(new IntentRecovery.Action(Long.parseLong(idAndRest[0]), created,
                    parts.length > 2 ? Long.valueOf(parts[2]) : null));
        }
        return out;
    }

    private static IntentRecovery.DeviceNow device(String spec) {
        String[] parts = spec.split("/");
        return new IntentRecovery.DeviceNow(ActionOutcome.valueOf(parts[0]), set(parts[1]), set(parts[2]));
    }

    private static Long set(String s) {
        return s.equals("-") ? null : Long.valueOf(s);
    }
}
