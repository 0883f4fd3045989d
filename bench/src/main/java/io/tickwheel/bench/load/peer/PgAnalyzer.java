package io.tickwheel.bench.load.peer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Stands in for autovacuum's ANALYZE on a JDBC peer's own tables, every {@value #PERIOD_MS} ms and on demand.
 *
 * <p>Why: the machine's PostgreSQL runs with {@code autovacuum = off}, so tables that grow from empty to 10^5 rows
 * during a run are never analyzed, and the cached plans of PostgreSQL's foreign-key checks (Quartz's tables
 * reference each other) stay sequential scans: a Quartz insert or {@code clear()} then costs time proportional to
 * the table and a run degrades quadratically (measured: a {@code clear()} of 24,000 timers did not finish in 3
 * minutes; after an ANALYZE it took 2 s). A PostgreSQL with default settings analyzes such tables by itself; this
 * keeps the comparison about the schedulers, not about a disabled maintenance daemon.
 *
 * <p>Uses one dedicated connection and one daemon thread; touches only the tables it is given. A failed ANALYZE is
 * retried at the next period. Thread safe.
 */
final class PgAnalyzer implements AutoCloseable {

  static final long PERIOD_MS = 5_000;

  private final Connection connection;
  private final String sql;
  private final ScheduledExecutorService timer;

  /** @param tables schema-qualified names of validated identifiers */
  PgAnalyzer(String jdbcUrl, String user, String password, List<String> tables, String threadName)
      throws SQLException {
    this.connection = DriverManager.getConnection(jdbcUrl, user, password);
    this.sql = "ANALYZE " + String.join(", ", tables);
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
    analyzeNow();
    timer.scheduleWithFixedDelay(this::analyzeQuietly, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
  }

  /** Runs ANALYZE on the tables now, on the caller's thread. */
  synchronized void analyzeNow() throws SQLException {
    try (Statement st = connection.createStatement()) {
      st.execute(sql);
    }
  }

  private void analyzeQuietly() {
    try {
      analyzeNow();
    } catch (SQLException e) {
      // next period
    }
  }

  @Override
  public void close() throws SQLException, InterruptedException {
    timer.shutdownNow();
    timer.awaitTermination(5, TimeUnit.SECONDS);
    synchronized (this) {
      connection.close();
    }
  }
}
