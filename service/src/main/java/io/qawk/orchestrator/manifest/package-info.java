/** Manifests: each component's set and order for a system type, their revisions and validation. */
package io.qawk.orchestrator.manifest;
