package io.qawk.orchestrator.deployment.store;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/**
 * A statement's parameters for rows written as {@code unnest} of arrays, one array per column, in order: how the
 * engine's writers ({@link RunDeviceWriter}, {@link SystemRunWriter}) send a thousand rows in one statement.
 * Times go as microseconds since 1970 ({@code int8}, read back with {@link #time}): formatting them as text was a
 * tenth of a writer's time, and {@code timestamptz} keeps nothing finer.
 */
final class ArrayColumns<T> {

    /** How many rows the writers send in one statement. */
    static final int ROWS_PER_STATEMENT = 1000;

    private final Connection connection;
    private final List<T> rows;
    private final PreparedStatement statement;
    private int index;

    ArrayColumns(Connection connection, List<T> rows, PreparedStatement statement) {
        this(connection, rows, statement, 1);
    }

    /** The columns as the statement's parameters from {@code first} on. */
    ArrayColumns(Connection connection, List<T> rows, PreparedStatement statement, int first) {
        this.connection = connection;
        this.rows = rows;
        this.statement = statement;
        this.index = first;
    }

    /**
     * The next parameter: this column of every row, as an array of {@code type}. The values go in a Java array of
     * their own type ({@code Long[]} for {@code int8}, …): the driver sends those in Postgres' binary form, where an
     * {@code Object[]} is written out as text, each element turned into a string and escaped (a seventh of the engine
     * thread's time in a pass at 5,000 systems under way). A value of another type fails at once.
     */
    ArrayColumns<T> add(String type, Function<T, Object> column) throws SQLException {
        Object[] values = switch (type) {
            case "int8" -> new Long[rows.size()];
            case "int4" -> new Integer[rows.size()];
            case "bool" -> new Boolean[rows.size()];
            case "text" -> new String[rows.size()];
            default -> throw new IllegalArgumentException("no array of " + type + " for a column");
        };
        for (int i = 0; i < values.length; i++) {
            values[i] = column.apply(rows.get(i));
        }
        Array array = connection.createArrayOf(type, values);
        statement.setArray(index++, array);
        return this;
    }

    /** Ids as one {@code int8[]} parameter, sent in binary as {@link #add}'s columns are. */
    static Array ids(Connection connection, List<Long> ids) throws SQLException {
        return connection.createArrayOf("int8", ids.toArray(Long[]::new));
    }

    /** A time column of the arrays ({@code v.column}, microseconds since 1970) as a {@code timestamptz}. */
    static String time(String column) {
        return "timestamptz 'epoch' + v." + column + " * interval '1 microsecond'";
    }

    /** A time as microseconds since 1970, for a column read with {@link #time}. */
    static Long micros(Instant at) {
        return at == null ? null : at.getEpochSecond() * 1_000_000L + at.getNano() / 1_000;
    }

    /** A {@code timestamptz} column of a result, or null. */
    static Instant instant(ResultSet rs, int column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
