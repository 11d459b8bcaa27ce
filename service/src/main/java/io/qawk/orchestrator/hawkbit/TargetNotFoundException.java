package io.qawk.orchestrator.hawkbit;

/** hawkBit does not know the target (404), e.g. it was deleted between listing it and reading it. */
public class TargetNotFoundException extends HawkbitException {

    private final String controllerId;

    public TargetNotFoundException(String controllerId, String message) {
        super(message, null);
        this.controllerId = controllerId;
    }

    public String controllerId() {
        return controllerId;
    }
}
