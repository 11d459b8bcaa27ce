/**
 * What every package shares: problem answers (application/problem+json), request checks, the clock, the database
 * requirement and SQL enum literals.
 */
package io.qawk.orchestrator.common;
