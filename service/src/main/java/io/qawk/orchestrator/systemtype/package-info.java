/** System types: which devices form a system, which component each one is, and the type's rules and guard mode. */
package io.qawk.orchestrator.systemtype;
