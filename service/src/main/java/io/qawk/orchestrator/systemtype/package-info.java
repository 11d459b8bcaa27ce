/**
 * System types: which devices form a system, which component each one is, and the type's rules and guard mode; what a
 * rule an update takes away exposed, for the audit.
 */
package io.qawk.orchestrator.systemtype;
