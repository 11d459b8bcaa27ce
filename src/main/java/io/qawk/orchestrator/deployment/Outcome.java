package io.qawk.orchestrator.deployment;

/** What hawkBit says of a device that was given a set: still at it, done, failed, or the target is gone. */
public enum Outcome {
    RUNNING, SUCCEEDED, FAILED, GONE
}
