/**
 * The deployment engine's reads and writes: the store that applies decisions, and the plain-JDBC writers of runs,
 * devices and the timeline.
 */
package io.qawk.orchestrator.deployment.store;
