package io.qawk.orchestrator.manifest;

import io.qawk.orchestrator.common.ConflictException;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Test stand-in for a running deployment: manifests whose name starts with {@value #PREFIX} are "in use". Other
 * tests never use that prefix.
 */
@ApplicationScoped
public class BlockingManifestUsage implements ManifestUsage {

    public static final String PREFIX = "in-use-by-test-";

    @Override
    public void checkChange(Manifest manifest) {
        if (manifest.name.startsWith(PREFIX)) {
            throw new ConflictException("manifest '" + manifest.name + "' is used by a deployment that has not ended");
        }
    }
}
