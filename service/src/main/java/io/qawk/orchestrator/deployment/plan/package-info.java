/**
 * The pure decisions of deployments, without database, HTTP or clock: one run's next step ({@code RunPlanner}), which
 * systems start ({@code RunScheduler}), and their words.
 */
package io.qawk.orchestrator.deployment.plan;
