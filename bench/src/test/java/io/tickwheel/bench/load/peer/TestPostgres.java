package io.tickwheel.bench.load.peer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;

/** The machine's PostgreSQL as the JDBC peers' smoke tests use it: a throw-away schema per test class. */
final class TestPostgres {

  private TestPostgres() {}

  /** Options that point a JDBC peer at {@code schema} (overridable with {@code -Dbench.jdbcUrl=...}). */
  static Map<String, String> options(String schema) {
    return Map.of("jdbcUrl", jdbcUrl(), "schema", schema, "threads", "4", "clientThreads", "2");
  }

  static String jdbcUrl() {
    return System.getProperty("bench.jdbcUrl", PeerOptions.DEFAULT_JDBC_URL);
  }

  /** Drops the test's own schema and everything in it (it is recreated by the next run). */
  static void dropSchema(String schema) throws Exception {
    try (Connection c = DriverManager.getConnection(jdbcUrl(), "postgres", "");
        Statement st = c.createStatement()) {
      st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }
}
