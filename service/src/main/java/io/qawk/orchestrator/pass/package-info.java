/**
 * What the deployment and release engines share: the pass loop and lock, the bulk device observer, their settings and a
 * device's observed outcome.
 */
package io.qawk.orchestrator.pass;
