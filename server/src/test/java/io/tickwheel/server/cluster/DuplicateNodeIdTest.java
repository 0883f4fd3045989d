package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.core.coordination.Lease;
import io.tickwheel.core.coordination.Member;
import io.tickwheel.core.coordination.NodeIdInUseException;
import io.tickwheel.core.coordination.memory.MemoryCoordinator;
import io.tickwheel.server.ServerConfig;
import io.tickwheel.server.TickwheelServer;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two real servers in one JVM started with the same {@code --node-id} on one {@link MemoryCoordinator} (the real
 * clock): the second refuses to start with a {@link NodeIdInUseException} (a configuration error: exit code 2 from
 * {@code Main}), and its failed start takes nothing from the first: membership, leases and epochs stay the first's.
 */
class DuplicateNodeIdTest {

  static final int P = 8;
  /** Long enough that the first's membership cannot lapse under a loaded CI machine while the second tries. */
  static final long LEASE = 3000;

  Vertx vertx;
  MemoryCoordinator coord;

  @BeforeEach
  void start() {
    vertx = TestVertx.create();
    coord = new MemoryCoordinator(System::currentTimeMillis, P);
  }

  @AfterEach
  void stop() {
    TestVertx.close(vertx);
  }

  TickwheelServer server(String nodeId) {
    ServerConfig cfg = ServerConfig.defaults().withStore("redis").withPort(0)
        .withCluster(new ClusterOptions(true, nodeId, null, P, LEASE));
    return new TickwheelServer(cfg, coord, System::currentTimeMillis, null);
  }

  @Test
  void aSecondProcessWithTheSameNodeIdIsRefusedAtStartAndTakesNothingFromTheFirst() {
    TickwheelServer first = server("n0");
    TestVertx.await(vertx.deployVerticle(first));
    Awaitility.await("the first serves every partition").atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(5)).until(() -> first.clusterNode().owned() == P);
    List<Lease> before = TestVertx.await(coord.leases());

    TickwheelServer second = server("n0");
    assertThatThrownBy(() -> TestVertx.await(vertx.deployVerticle(second)))
        .isInstanceOfSatisfying(NodeIdInUseException.class, e -> {
          assertThat(e.nodeId()).isEqualTo("n0");
          assertThat(e.address()).isEqualTo("http://127.0.0.1:" + first.actualPort());
        })
        .hasMessageContaining("--node-id");

    // the refused process left nothing behind: the member is the first, which still holds every lease it held
    List<Member> members = TestVertx.await(coord.members());
    assertThat(members).extracting(Member::address).containsExactly("http://127.0.0.1:" + first.actualPort());
    assertThat(first.clusterNode().owned()).isEqualTo(P);
    List<Lease> after = TestVertx.await(coord.leases());
    for (int p = 0; p < P; p++) {
      assertThat(after.get(p).nodeId()).isEqualTo("n0");
      assertThat(after.get(p).epoch()).as("partition %d keeps the first's epoch", p).isEqualTo(before.get(p).epoch());
      assertThat(after.get(p).expiresAt()).as("partition %d not released", p)
          .isGreaterThan(System.currentTimeMillis());
    }
  }
}
