/** The service's health: readiness as it depends on hawkBit, liveness as it depends on the deployment engine passing. */
package io.qawk.orchestrator.health;
