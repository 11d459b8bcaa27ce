/**
 * The inventory: the sync from hawkBit, the devices it stores and the systems it finds, and the census of what they
 * run.
 */
package io.qawk.orchestrator.inventory;
