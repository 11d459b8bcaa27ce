/** Maintenance windows: when each centre's systems may start, evaluated against the clock. */
package io.qawk.orchestrator.window;
