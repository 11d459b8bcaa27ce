/**
 * The published OpenAPI document as a contract: operation ids, problem answers, created and deleted statuses, nullable
 * fields and security, added to every operation when the service is built.
 */
package io.qawk.orchestrator.apidoc;
