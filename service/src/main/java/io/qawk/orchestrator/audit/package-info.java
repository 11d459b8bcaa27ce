/**
 * The audit log: who changed what through the API, stored with each command and listed by {@code GET /qawk/v1/audit}.
 */
package io.qawk.orchestrator.audit;
