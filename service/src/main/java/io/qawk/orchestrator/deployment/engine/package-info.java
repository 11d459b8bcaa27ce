/**
 * The deployment engine: the loop of passes and each step of one (recover, observe, plan and save, start, send), what
 * it asks of hawkBit, and its settings; the channels' release engine runs on its observer and settings too.
 */
package io.qawk.orchestrator.deployment.engine;
