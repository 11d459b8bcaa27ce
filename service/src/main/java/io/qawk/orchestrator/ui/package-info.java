/** The screen's server side: who is signed in, and the root's redirect to the screen. */
package io.qawk.orchestrator.ui;
