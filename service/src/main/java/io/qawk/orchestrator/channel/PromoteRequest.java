package io.qawk.orchestrator.channel;

/** Promotion: {@code orchestrator: false} leaves the manifest behind (only the set goes on). */
public record PromoteRequest(Boolean orchestrator) {
}
