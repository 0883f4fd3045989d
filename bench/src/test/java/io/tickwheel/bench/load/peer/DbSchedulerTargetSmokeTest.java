package io.tickwheel.bench.load.peer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** db-scheduler on the machine's PostgreSQL. Runs only with {@code -Dbench.peers=true} (see bench/PEERS.md). */
@EnabledIfSystemProperty(named = "bench.peers", matches = "true")
class DbSchedulerTargetSmokeTest {

  private static final String SCHEMA = "dbscheduler_bench_smoke";

  @BeforeAll
  @AfterAll
  static void dropSchema() throws Exception {
    TestPostgres.dropSchema(SCHEMA);
  }

  @Test
  void createsItsTableThenFiresTwentyTimersOnceEachHonoursARescheduleAndResetRemovesPendingOnes()
      throws Exception {
    PeerSmokeScenario.run(new DbSchedulerTarget(TestPostgres.options(SCHEMA)));
  }
}
