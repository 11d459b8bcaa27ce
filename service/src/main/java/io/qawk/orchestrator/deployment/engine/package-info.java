/**
 * The deployment engine: the loop of passes and each step of one (recover, observe, plan and save, start, send), and
 * what it asks of hawkBit.
 */
package io.qawk.orchestrator.deployment.engine;
