package io.qawk.orchestrator.channel;

import io.qawk.orchestrator.deployment.ChannelDeployments;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;

/** How a release stands, counted from its deployment's runs and its standalone devices, and said in words. */
@ApplicationScoped
class ReleaseStatus {

    @Inject
    ChannelDeployments deployments;

    ChannelView.SystemCounts systems(ChannelRelease r) {
        if (r.deploymentId == null) {
            return null;
        }
        ChannelDeployments.SystemTally t = deployments.tally(r.deploymentId);
        return new ChannelView.SystemCounts(t.total(), t.updated(), t.back(), t.underWay(), t.pending(), t.givenUp(),
                t.held());
    }

    static ChannelView.DeviceCounts devices(ChannelRelease r) {
        if (r.distributionSetId == null) {
            return null;
        }
        List<Object[]> rows = ReleaseDevice.getEntityManager().createQuery(
                        "select d.state, count(d) from ReleaseDevice d where d.releaseId = :r group by d.state", Object[].class)
                .setParameter("r", r.id).getResultList();
        int onSet = 0;
        int failed = 0;
        int inFlight = 0;
        int pending = 0;
        for (Object[] row : rows) {
            int n = ((Number) row[1]).intValue();
            switch ((ReleaseDevice.State) row[0]) {
                case ON_SET, ALREADY -> onSet += n;
                case FAILED -> failed += n;
                case ASSIGNED -> inFlight += n;
                case PENDING -> pending += n;
                case LEFT -> {
                }
            }
        }
        return new ChannelView.DeviceCounts(onSet + failed + inFlight + pending, onSet, failed, inFlight, pending);
    }

    /** "15 of 16 systems updated, 1 rolled back, 1 held". */
    static String systemsWords(ChannelView.SystemCounts c) {
        if (c == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder().append(c.updated()).append(" of ").append(c.total())
                .append(" systems updated, ").append(c.rolledBack()).append(" rolled back");
        if (c.held() > 0) {
            sb.append(", ").append(c.held()).append(" held");
        }
        if (c.underWay() > 0) {
            sb.append(", ").append(c.underWay()).append(" under way");
        }
        if (c.givenUp() > 0) {
            sb.append(", ").append(c.givenUp()).append(" given up");
        }
        return sb.toString();
    }

    /** "412 of 420 devices on app:2.0, 3 failed". */
    static String devicesWords(ChannelView.DeviceCounts c, String set) {
        if (c == null) {
            return null;
        }
        return c.onSet() + " of " + c.total() + " devices on " + set + ", " + c.failed() + " failed";
    }

    String words(ChannelRelease r) {
        String s = systemsWords(systems(r));
        String d = devicesWords(devices(r), r.distributionSet);
        return s == null ? d : d == null ? s : s + "; " + d;
    }

}
