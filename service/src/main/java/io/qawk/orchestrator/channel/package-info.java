/**
 * Channels ({@code /qawk/v1/fleets}): their members, releases (the pure {@code ReleasePlanner} and its engine),
 * promotion, halts and the deployments that follow them.
 */
package io.qawk.orchestrator.channel;
