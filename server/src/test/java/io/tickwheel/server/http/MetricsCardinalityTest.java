package io.tickwheel.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.metrics.RouteMeters;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.RawHttp;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The request metrics cannot be grown by a caller: made-up methods count as {@code OTHER}, routes are templates,
 * so 10,000 requests with distinct methods and paths (no token needed: the metrics handler runs before auth) leave
 * {@code /metrics} about the size it was.
 */
@ExtendWith(BlockedThreadGuard.class)
class MetricsCardinalityTest {

  static final int REQUESTS = 10_000;
  static final Pattern SERIES = Pattern.compile(
      "^tickwheel_http_requests_seconds_count\\{method=\"([^\"]*)\",route=\"([^\"]*)\",status=\"([^\"]*)\",?\\}",
      Pattern.MULTILINE);

  static Vertx vertx;

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  @Test
  void tenThousandDistinctMethodsAndPathsLeaveTheMetricsBounded() throws Exception {
    try (ServerHarness s = ServerHarness.start(vertx)) {
      int before = lines(scrape(s));
      // raw sockets from a few threads (an error answer closes its connection, so one connection per request)
      int threads = 8;
      List<Thread> senders = new ArrayList<>();
      List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      java.util.concurrent.atomic.AtomicInteger answered = new java.util.concurrent.atomic.AtomicInteger();
      for (int c = 0; c < threads; c++) {
        int first = c;
        Thread t = new Thread(() -> {
          try {
            for (int i = first; i < REQUESTS; i += threads) {
              RawHttp.send(s.port, method(i), path(i), List.of("Host: 127.0.0.1"), null);
              answered.incrementAndGet();
            }
          } catch (Throwable e) {
            failures.add(e);
          }
        });
        t.start();
        senders.add(t);
      }
      for (Thread t : senders) {
        t.join(60_000);
      }
      assertThat(failures).isEmpty();
      assertThat(answered.get()).isEqualTo(REQUESTS);
      String text = scrape(s);
      int after = lines(text);
      System.out.println("/metrics lines: " + before + " before, " + after + " after " + REQUESTS
          + " requests with distinct methods and paths");
      Set<String> methods = new TreeSet<>();
      Set<String> routes = new TreeSet<>();
      Matcher m = SERIES.matcher(text);
      int series = 0;
      while (m.find()) {
        methods.add(m.group(1));
        routes.add(m.group(2));
        series++;
      }
      assertThat(methods).isSubsetOf(RouteMeters.METHOD_LABELS);
      assertThat(routes).allMatch(r -> r.equals("other") || r.startsWith("/"))
          .noneMatch(r -> r.contains("nope") || r.contains("id-") || r.matches(".*/x\\d.*"));
      assertThat(series).isLessThan(40);
      assertThat(after).isLessThan(before + 4_000);
    }
  }

  /** A made-up method, but every 4th request a GET. */
  private static String method(int i) {
    return i % 4 == 0 ? "GET" : "RND" + i;
  }

  /** A made-up path, one on a templated route, one under the console's files. */
  private static String path(int i) {
    return switch (i % 3) {
      case 0 -> "/nope/" + i;
      case 1 -> "/v1/timers/id-" + i;
      default -> "/console/x" + i + ".js";
    };
  }

  private static String scrape(ServerHarness s) {
    return s.send(HttpMethod.GET, "/metrics").bodyAsString();
  }

  private static int lines(String text) {
    return (int) text.lines().count();
  }
}
