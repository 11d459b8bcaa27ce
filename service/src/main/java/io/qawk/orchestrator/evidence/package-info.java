/**
 * The evidence record of an ended deployment: built from Qawk's rows when it ends, sealed with its SHA-256, served as
 * JSON or CSV and verified against the rows it was made of.
 */
package io.qawk.orchestrator.evidence;
