/**
 * The hawkBit Management API client: requests, answers, their failures and the circuit breaker around them; the
 * counting of every request and the request budget that paces them and waits out hawkBit's 429s.
 */
package io.qawk.orchestrator.hawkbit;
