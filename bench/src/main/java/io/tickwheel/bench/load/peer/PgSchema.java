package io.tickwheel.bench.load.peer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Creates a peer's tables in its own PostgreSQL schema, once: if {@code schema.probeTable} does not exist, the
 * schema is created (if missing) and the peer's DDL runs with {@code search_path} set to that schema only, so every
 * unqualified name in the DDL (including its {@code DROP TABLE IF EXISTS} lines) resolves inside the peer's schema
 * and nothing else in the database is touched. All in one transaction under a transaction-scoped advisory lock, so
 * two processes starting at once do not race. Existing tables are left as they are (their rows are the peer's
 * {@code reset}'s business).
 *
 * <p>Stateless; the caller owns the connection.
 */
final class PgSchema {

  private PgSchema() {}

  /**
   * Ensures {@code schema} holds the peer's tables.
   *
   * @param schema     a validated SQL identifier ({@link PeerOptions#sqlIdentifier})
   * @param probeTable a table the DDL creates; its presence means the DDL already ran
   * @param ddl        statements to run when it is missing, in order
   * @return whether the DDL ran
   */
  static boolean ensure(Connection c, String schema, String probeTable, List<String> ddl) throws SQLException {
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(false);
    try (Statement st = c.createStatement()) {
      try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))")) {
        lock.setString(1, "tickwheel-bench:" + schema);
        lock.execute();
      }
      boolean present;
      try (PreparedStatement probe = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
        probe.setString(1, schema + "." + probeTable);
        try (ResultSet rs = probe.executeQuery()) {
          rs.next();
          present = rs.getBoolean(1);
        }
      }
      if (!present) {
        st.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
        st.execute("SET LOCAL search_path TO " + schema);
        for (String sql : ddl) {
          st.execute(sql);
        }
      }
      c.commit();
      return !present;
    } catch (SQLException | RuntimeException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(autoCommit);
    }
  }

  /**
   * The statements of an SQL script on the class path: {@code --} comment lines dropped, split on {@code ;}, blank
   * statements and a bare {@code COMMIT} (the caller owns the transaction) left out. Good for plain DDL scripts
   * without semicolons inside literals or function bodies, such as Quartz's {@code tables_postgres.sql}.
   */
  static List<String> scriptFromClasspath(String resource) {
    try (InputStream in = PgSchema.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("DDL script not on the class path: " + resource);
      }
      return split(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read DDL script " + resource, e);
    }
  }

  static List<String> split(String script) {
    StringBuilder noComments = new StringBuilder();
    for (String line : script.split("\n")) {
      if (!line.strip().startsWith("--")) {
        noComments.append(line).append('\n');
      }
    }
    List<String> out = new ArrayList<>();
    for (String s : noComments.toString().split(";")) {
      String sql = s.strip();
      if (!sql.isEmpty() && !sql.equalsIgnoreCase("COMMIT")) {
        out.add(sql);
      }
    }
    return out;
  }
}
