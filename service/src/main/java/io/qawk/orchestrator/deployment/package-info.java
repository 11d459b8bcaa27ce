/**
 * System deployments: the service that creates and commands them, what the API reads of them, their scope and what
 * channels use, over the rooms below.
 */
package io.qawk.orchestrator.deployment;
