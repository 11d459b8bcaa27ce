/** The service's health: readiness as it depends on hawkBit (and, UP always, which records are behind it), liveness as it depends on the deployment engine passing. */
package io.qawk.orchestrator.health;
