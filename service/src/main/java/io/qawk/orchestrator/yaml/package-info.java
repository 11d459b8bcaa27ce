/** Mender-compatible YAML: manifests and topologies imported and exported. */
package io.qawk.orchestrator.yaml;
