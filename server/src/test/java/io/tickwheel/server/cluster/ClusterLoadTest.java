package io.tickwheel.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the cluster ITs accept as a refusal under a fault, and what fails them. */
class ClusterLoadTest {

  static final String LIVE = "http://127.0.0.1:1";
  static final String STOPPED = "http://127.0.0.1:2";
  static final String UNAVAILABLE = "{\"error\":{\"code\":\"unavailable\",\"message\":\"partition 3 moved\"}}";

  static ClusterLoad with(ClusterLoad.Refusal... refusals) {
    ClusterLoad load = new ClusterLoad(null, List::of);
    load.refusals.addAll(List.of(refusals));
    return load;
  }

  @Test
  void a503AnsweredAsUnavailableOrWithRetryAfterAndALostConnectionToAFaultedNodePass() {
    with(new ClusterLoad.Refusal(LIVE, 503, null, UNAVAILABLE, null),
        new ClusterLoad.Refusal(LIVE, 503, "1", "", null),
        new ClusterLoad.Refusal(STOPPED, 0, null, null, new ConnectException("refused")),
        new ClusterLoad.Refusal(STOPPED, 0, null, null, new HttpTimeoutException("timed out")))
        .assertOnlyRetryableRefusals(List.of(STOPPED));
  }

  @Test
  void a500ANon503AnUnreadable503OrATimeoutFromAHealthyNodeFailListingThem() {
    for (ClusterLoad.Refusal r : List.of(
        new ClusterLoad.Refusal(LIVE, 500, null, "{\"error\":{\"code\":\"internal\",\"message\":\"boom\"}}", null),
        new ClusterLoad.Refusal(LIVE, 502, "1", UNAVAILABLE, null),
        new ClusterLoad.Refusal(LIVE, 409, null, "{}", null),
        new ClusterLoad.Refusal(LIVE, 503, null, "<html>proxy</html>", null),
        new ClusterLoad.Refusal(LIVE, 0, null, null, new HttpTimeoutException("timed out")),
        new ClusterLoad.Refusal(STOPPED, 0, null, null, new IllegalStateException("a bug in the client")))) {
      assertThatThrownBy(() -> with(r, new ClusterLoad.Refusal(LIVE, 503, "1", "", null))
          .assertOnlyRetryableRefusals(List.of(STOPPED)))
          .isInstanceOf(AssertionError.class).hasMessageContaining(r.toString()).hasMessageContaining("2 refusals");
    }
    assertThat(with().refusals).isEmpty();
  }
}
