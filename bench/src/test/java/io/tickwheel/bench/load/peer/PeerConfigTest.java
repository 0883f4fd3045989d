package io.tickwheel.bench.load.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** How the peers read their options and configure themselves; needs no service, runs in every build. */
class PeerConfigTest {

  @Test
  void quartzUsesTheJdbcStoreThePostgresDelegateAPoolOfThreadsPlusThreePlusClientsAndBatchAcquisition() {
    var p = new QuartzJdbcTarget(Map.of("threads", "12", "clientThreads", "3", "schema", "s1")).quartzProperties();
    assertThat(p.getProperty("org.quartz.jobStore.class")).isEqualTo("org.quartz.impl.jdbcjobstore.JobStoreTX");
    assertThat(p.getProperty("org.quartz.jobStore.driverDelegateClass"))
        .isEqualTo("org.quartz.impl.jdbcjobstore.PostgreSQLDelegate");
    assertThat(p.getProperty("org.quartz.jobStore.tablePrefix")).isEqualTo("s1.qrtz_");
    assertThat(p.getProperty("org.quartz.dataSource.tickwheelBench.provider")).isEqualTo("hikaricp");
    assertThat(p.getProperty("org.quartz.dataSource.tickwheelBench.maxConnections")).isEqualTo("18");
    assertThat(p.getProperty("org.quartz.threadPool.threadCount")).isEqualTo("12");
    assertThat(p.getProperty("org.quartz.scheduler.batchTriggerAcquisitionMaxCount")).isEqualTo("12");
    assertThat(p.getProperty("org.quartz.jobStore.acquireTriggersWithinLock")).isEqualTo("true");
    assertThat(p.getProperty("org.quartz.scheduler.batchTriggerAcquisitionFireAheadTimeWindow")).isEqualTo("0");
    assertThat(p.getProperty("org.quartz.jobStore.misfireThreshold")).isEqualTo("60000");
  }

  @Test
  void aNonLoopbackJdbcUrlIsRefusedNamingTheOption() {
    assertThatThrownBy(() -> new QuartzJdbcTarget(Map.of("jdbcUrl", "jdbc:postgresql://192.0.2.1:5432/test")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("jdbcUrl")
        .hasMessageContaining("192.0.2.1");
  }

  @Test
  void aJdbcUrlForAnotherDatabaseIsRefused() {
    assertThatThrownBy(() -> new QuartzJdbcTarget(Map.of("jdbcUrl", "jdbc:mysql://127.0.0.1/test")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("jdbc:postgresql://");
  }

  @Test
  void aSchemaThatIsNotAPlainIdentifierIsRefused() {
    assertThatThrownBy(() -> new QuartzJdbcTarget(Map.of("schema", "x; drop table y")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("schema")
        .hasMessageContaining("x; drop table y");
  }

  @Test
  void anOutOfRangeThreadCountIsRefusedWithTheValue() {
    assertThatThrownBy(() -> new QuartzJdbcTarget(Map.of("threads", "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("threads")
        .hasMessageContaining("'0'");
    assertThatThrownBy(() -> new QuartzJdbcTarget(Map.of("threads", "ten")))
        .hasMessageContaining("threads")
        .hasMessageContaining("'ten'");
  }

  @Test
  void callsBeforeStartAndMismatchedBatchesFailTheStageInsteadOfThrowing() {
    var target = new QuartzJdbcTarget(Map.of());
    assertThatThrownBy(() -> target.schedule("a", 1L).toCompletableFuture().get())
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> target.scheduleBatch(List.of("a", "b"), new long[] {1L}).toCompletableFuture().get())
        .hasCauseInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("same length");
    assertThatThrownBy(() -> target.schedule("x".repeat(201), 1L).toCompletableFuture().get())
        .hasCauseInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("200");
  }

  @Test
  void ddlScriptsAreSplitIntoStatementsWithoutCommentsOrCommit() {
    assertThat(PgSchema.split("-- c\nDROP TABLE IF EXISTS A;\n\nCREATE TABLE A\n(x INT);\nCOMMIT;\n"))
        .containsExactly("DROP TABLE IF EXISTS A", "CREATE TABLE A\n(x INT)");
    assertThat(PgSchema.scriptFromClasspath("org/quartz/impl/jdbcjobstore/tables_postgres.sql"))
        .anyMatch(s -> s.startsWith("CREATE TABLE QRTZ_TRIGGERS"))
        .noneMatch(s -> s.equalsIgnoreCase("COMMIT"));
  }
}
