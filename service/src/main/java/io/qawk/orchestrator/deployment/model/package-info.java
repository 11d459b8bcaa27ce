/**
 * Deployments, runs and devices as stored, their states with the guards that move them, what a pass observes of a
 * device, and the timeline's records.
 */
package io.qawk.orchestrator.deployment.model;
