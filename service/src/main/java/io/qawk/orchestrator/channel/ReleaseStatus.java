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

    FleetView.SystemCounts systems(FleetRelease r) {
        if (r.deploymentId == null) {
            return null;
        }
        ChannelDeployments.SystemTally t = deployments.tally(r.deploymentId);
        return new FleetView.SystemCounts(t.total(), t.updated(), t.back(), t.underWay(), t.pending(), t.givenUp());
    }

    static FleetView.DeviceCounts devices(FleetRelease r) {
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
        return new FleetView.DeviceCounts(onSet + failed + inFlight + pending, onSet, failed, inFlight, pending);
    }

    /** "15 of 16 systems updated, 1 rolled back". */
    static String systemsWords(FleetView.SystemCounts c) {
        if (c == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder().append(c.updated()).append(" of ").append(c.total())
                .append(" systems updated, ").append(c.rolledBack()).append(" rolled back");
        if (c.underWay() > 0) {
            sb.append(", ").append(c.underWay()).append(" under way");
        }
        if (c.givenUp() > 0) {
            sb.append(", ").append(c.givenUp()).append(" given up");
        }
        return sb.toString();
    }

    /** "412 of 420 devices on app:2.0, 3 failed". */
    static String devicesWords(FleetView.DeviceCounts c, String set) {
        if (c == null) {
            return null;
        }
        return c.onSet() + " of " + c.total() + " devices on " + set + ", " + c.failed() + " failed";
    }

    String words(FleetRelease r) {
        String s = systemsWords(systems(r));
        String d = devicesWords(devices(r), r.distributionSet);
        return s == null ? d : d == null ? s : s + "; " + d;
    }

}
