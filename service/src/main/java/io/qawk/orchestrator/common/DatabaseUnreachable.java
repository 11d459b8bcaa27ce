package io.qawk.orchestrator.common;

import java.net.ConnectException;
import java.sql.SQLException;
import java.util.Locale;

/**
 * Whether a failure is Qawk's own Postgres being unreachable (stopped, crashed, restarting, the network away), not a
 * bug and not the caller's fault: the API answers 503 and the engines say so on the timeline. Recognised anywhere in
 * the cause chain: a connection failure ({@code SQLState} class 08), an administrator or crash shutdown or a server
 * still starting ({@code 57P01}–{@code 57P03}), the pool giving up waiting for a connection, a refused TCP connection.
 */
public final class DatabaseUnreachable {

    /** What the API answers meanwhile, in operators' words. */
    public static final String DETAIL = "Qawk's database is unreachable; nothing was changed; try again";
    /** On the timeline, the cause of the stretch a deployment was not observed. */
    public static final String CAUSE = "Qawk's database was unreachable";
    /** Seconds a client should wait before it tries again ({@code Retry-After}). */
    public static final int RETRY_AFTER_SECONDS = 10;

    private DatabaseUnreachable() {
    }

    public static boolean in(Throwable failure) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 32; t = t.getCause() == t ? null : t.getCause(), depth++) {
            if (t instanceof SQLException sql && unreachable(sql.getSQLState(), sql.getMessage())) {
                return true;
            }
            if (t instanceof ConnectException) {
                return true;
            }
            if (t.getClass().getName().equals("org.hibernate.exception.JDBCConnectionException")) {
                return true;
            }
        }
        return false;
    }

    static boolean unreachable(String sqlState, String message) {
        if (sqlState != null && (sqlState.startsWith("08") || sqlState.equals("57P01") || sqlState.equals("57P02")
                || sqlState.equals("57P03"))) {
            return true;
        }
        String m = message == null ? "" : message.toLowerCase(Locale.ROOT);
        // Agroal, when no connection could be had in time (the server refuses or is gone)
        return m.contains("acquisition timeout");
    }
}
