/**
 * Compatibility rules of a system type: set patterns, the first rule a state breaks, and a manifest's way through them.
 */
package io.qawk.orchestrator.rules;
