/**
 * What every package shares: problem answers (application/problem+json), request checks, how an update reads its body
 * (PUT keeps what it leaves out, PATCH is a JSON Merge Patch), the clock, the database requirement, SQL enum literals,
 * the engines' advisory lock and lists cut into chunks.
 */
package io.qawk.orchestrator.common;
