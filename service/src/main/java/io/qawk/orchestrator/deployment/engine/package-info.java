/**
 * The deployment engine: the loop of passes and each step of one (recover, observe, plan and save, start, send) and
 * what it asks of hawkBit. How devices are observed, and the settings, are shared with the channels' release engine
 * in {@code observation}.
 */
package io.qawk.orchestrator.deployment.engine;
