/** Deployments, runs and devices as stored, their states with the guards that move them, and the timeline's records. */
package io.qawk.orchestrator.deployment.model;
