package io.qawk.orchestrator.common;

import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;
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

    /**
     * Who is making the request under way (the audit listing's actor for it); null outside a request (a start, a
     * scheduled pass) or for nobody signed in.
     */
    public static String current() {
        if (Arc.container() == null || !Arc.container().requestContext().isActive()) {
            return null;
        }
        try (InstanceHandle<SecurityIdentity> identity = Arc.container().instance(SecurityIdentity.class)) {
            return identity.isAvailable() ? of(identity.get()) : null;
        }
    }
}
