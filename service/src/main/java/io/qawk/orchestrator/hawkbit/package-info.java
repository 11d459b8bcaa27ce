/** The hawkBit Management API client: requests, answers, their failures and the circuit breaker around them. */
package io.qawk.orchestrator.hawkbit;
