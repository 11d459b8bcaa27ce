/**
 * The ways in: built-in users or an OpenID Connect provider, its roles as Qawk's admin and viewer, the 401 and 403
 * answers, and the headers a browser needs on every answer (policy, framing, sniffing, caching).
 */
package io.qawk.orchestrator.security;
