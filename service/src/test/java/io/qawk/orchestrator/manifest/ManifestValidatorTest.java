package io.qawk.orchestrator.manifest;

import io.qawk.orchestrator.common.FieldError;
import io.qawk.orchestrator.common.InvalidRequestException;
import io.qawk.orchestrator.hawkbit.DistributionSetRef;
import io.qawk.orchestrator.systemtype.Component;
import io.qawk.orchestrator.systemtype.SystemType;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The manifest rules without a database or hawkBit: the system type and sets come from maps. */
class ManifestValidatorTest {

    private static final SystemType TYPE = type();
    private static final Map<Long, DistributionSetRef> SETS = Map.of(
            10L, new DistributionSetRef(10, "app", "2.0", true),
            11L, new DistributionSetRef(11, "fw", "2.0", true),
            12L, new DistributionSetRef(12, "half", "1.0", false));

    private static SystemType type() {
        SystemType t = new SystemType();
        t.id = 1L;
        t.name = "lane";
        t.components.add(new Component("device1", "attribute.t==1", null));
        t.components.add(new Component("device2", "attribute.t==2", null));
        return t;
    }

    private static ManifestRequest.ComponentRequest c(String type, Long set, Integer order) {
        return new ManifestRequest.ComponentRequest(type, set, order);
    }

    private static List<FieldError> errorsOf(ManifestRequest r) {
        InvalidRequestException e = catchThrowableOfType(InvalidRequestException.class, () -> validate(r));
        assertThat(e).as("refused").isNotNull();
        return e.errors();
    }

    private static Map<Long, DistributionSetRef> validate(ManifestRequest r) {
        return ManifestValidator.validate(r, id -> id == 1L ? Optional.of(TYPE) : Optional.empty(),
                id -> Optional.ofNullable(SETS.get(id))).sets();
    }

    @Test
    void aGoodRequestReturnsItsSets() {
        Map<Long, DistributionSetRef> sets = validate(new ManifestRequest("lane 2.0", 1L,
                List.of(c("device2", 11L, 1), c("device1", 10L, 2))));
        assertThat(sets).containsOnlyKeys(10L, 11L);
    }

    @Test
    void leavingComponentTypesOutIsFine() {
        assertThat(validate(new ManifestRequest("only-one", 1L, List.of(c("device1", 10L, 1000))))).hasSize(1);
    }

    @Test
    void everyProblemIsReportedWithItsPath() {
        List<FieldError> errors = errorsOf(new ManifestRequest(" ", 1L, Arrays.asList(
                c("printer", 10L, 1), c("device1", 99L, 0), c("device1", 12L, 1001), null, c(null, null, null),
                c("device2", -1L, 1))));
        assertThat(errors).extracting(FieldError::field).containsExactlyInAnyOrder(
                "name",
                "components[0].componentType",
                "components[1].distributionSetId", "components[1].order",
                "components[2].componentType", "components[2].distributionSetId", "components[2].order",
                "components[3]",
                "components[4].componentType", "components[4].order", "components[4].distributionSetId",
                "components[5].distributionSetId");
        assertThat(message(errors, "components[0].componentType")).contains("not a component of system type 'lane'")
                .contains("device1, device2");
        assertThat(message(errors, "components[1].distributionSetId")).isEqualTo(
                "distribution set 99 does not exist in hawkBit");
        assertThat(message(errors, "components[1].order")).contains("between 1 and 1000 (got 0)");
        assertThat(message(errors, "components[2].componentType")).contains("more than once");
        assertThat(message(errors, "components[2].distributionSetId")).contains("half:1.0").contains("incomplete");
        assertThat(message(errors, "components[2].order")).contains("got 1001");
        assertThat(message(errors, "components[5].distributionSetId")).contains("positive");
    }

    @Test
    void anUnknownSystemTypeIsNamed() {
        List<FieldError> errors = errorsOf(new ManifestRequest("x", 7L, List.of(c("anything", 10L, 1))));
        assertThat(errors).containsExactly(new FieldError("systemTypeId", "system type 7 does not exist"));
    }

    @Test
    void missingPartsAreRequired() {
        assertThat(errorsOf(new ManifestRequest(null, null, null))).extracting(FieldError::field)
                .containsExactly("name", "systemTypeId", "components");
        assertThat(errorsOf(new ManifestRequest("x", 1L, List.of()))).extracting(FieldError::message)
                .containsExactly("at least one component is required");
        assertThat(errorsOf(null)).extracting(FieldError::field).containsExactly("");
    }

    @Test
    void aSetNamedTwiceIsLookedUpOnce() {
        int[] calls = {0};
        ManifestValidator.validate(new ManifestRequest("x", 1L, List.of(c("device1", 10L, 1), c("device2", 10L, 2))),
                id -> Optional.of(TYPE), id -> {
                    calls[0]++;
                    return Optional.ofNullable(SETS.get(id));
                });
        assertThat(calls[0]).isEqualTo(1);
    }

    private static String message(List<FieldError> errors, String field) {
        return errors.stream().filter(e -> e.field().equals(field)).map(FieldError::message).findFirst().orElseThrow();
    }
}
