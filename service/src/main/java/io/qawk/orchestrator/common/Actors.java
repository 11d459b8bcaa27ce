package io.qawk.orchestrator.common;

import io.quarkus.security.identity.SecurityIdentity;

/** Who is doing something, for the records (run events, releases): the user's name, or null for nobody. */
public final class Actors {

    /** The role that may approve or reject a deployment awaiting four eyes (issue 42); never its creator. */
    public static final String APPROVER = "approver";

    private Actors() {
    }

    public static String of(SecurityIdentity identity) {
        return identity == null || identity.isAnonymous() ? null : identity.getPrincipal().getName();
    }
}
