package io.qawk.orchestrator.testsupport;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Reads whole tables as text, so a test can prove a refused request changed nothing. */
public final class Tables {

    private Tables() {
    }

    public static List<String> dump(DataSource ds, String... tables) {
        List<String> rows = new ArrayList<>();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            for (String table : tables) {
                try (ResultSet rs = s.executeQuery("select * from " + table + " order by 1")) {
                    ResultSetMetaData md = rs.getMetaData();
                    while (rs.next()) {
                        StringBuilder sb = new StringBuilder(table).append(':');
                        for (int i = 1; i <= md.getColumnCount(); i++) {
                            sb.append(rs.getString(i)).append('|');
                        }
                        rows.add(sb.toString());
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return rows;
    }
}
