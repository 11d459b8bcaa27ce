/** The deployments' API: resources that map what the service reads and does to their views, and nothing else. */
package io.qawk.orchestrator.deployment.api;
