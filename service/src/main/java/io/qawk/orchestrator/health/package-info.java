/** The service's readiness as it depends on hawkBit. */
package io.qawk.orchestrator.health;
