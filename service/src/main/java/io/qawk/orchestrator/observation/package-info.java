/**
 * What both engines share, the system deployments' and the channel releases': how the devices in flight are observed
 * in hawkBit (in bulk, side by side), what a device's observation says, and the engines' settings ({@code qawk.engine.*}).
 */
package io.qawk.orchestrator.observation;
