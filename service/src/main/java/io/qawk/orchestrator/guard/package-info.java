/**
 * The guard: hawkBit work outside Qawk (rollouts, auto-assignments, hand assignments) that would move system members,
 * listed as threats and held where the type says so.
 */
package io.qawk.orchestrator.guard;
