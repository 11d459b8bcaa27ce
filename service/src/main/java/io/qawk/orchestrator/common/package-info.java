/**
 * What every package shares: problem answers (application/problem+json), request checks, the clock, the database
 * requirement, SQL enum literals, the engines' advisory lock and lists cut into chunks.
 */
package io.qawk.orchestrator.common;
