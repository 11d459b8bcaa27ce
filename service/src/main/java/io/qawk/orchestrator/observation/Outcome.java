package io.qawk.orchestrator.observation;

/**
 * What is known of a device of a run: from hawkBit, still at it, done, failed, the target is gone, or
 * {@code TAKEN_OVER} (someone else gave it another set while ours was open, so hawkBit cancelled ours); from the
 * inventory, {@code LEFT} (it no longer fills its component of this system: another system key, another component).
 */
public enum Outcome {
    RUNNING, SUCCEEDED, FAILED, GONE, TAKEN_OVER, LEFT
}
