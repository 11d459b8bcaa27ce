/**
 * The ways in: built-in users or an OpenID Connect provider, its roles as Qawk's admin and viewer, and the 401 and 403
 * answers.
 */
package io.qawk.orchestrator.security;
