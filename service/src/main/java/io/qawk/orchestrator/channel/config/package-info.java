/** Channels declared in the configuration ({@code qawk.channels.*}): read, validated and applied at start-up. */
package io.qawk.orchestrator.channel.config;
