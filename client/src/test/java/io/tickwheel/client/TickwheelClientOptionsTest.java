package io.tickwheel.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TickwheelClientOptionsTest {

  @Test
  void defaults_are_the_documented_ones() {
    TickwheelClientOptions o = new TickwheelClientOptions();
    assertThat(o.getEndpoint()).isEqualTo("http://127.0.0.1:8080");
    assertThat(o.getToken()).isNull();
    assertThat(o.getConnectTimeoutMs()).isEqualTo(5_000);
    assertThat(o.getIdleTimeoutMs()).isEqualTo(60_000);
    assertThat(o.getRequestTimeoutMs()).isEqualTo(30_000);
    assertThat(o.getMaxInFlight()).isEqualTo(1_024);
    assertThat(o.getMaxQueued()).isEqualTo(65_536);
    assertThat(o.getMaxTouchBatchIds()).isEqualTo(10_000);
    assertThat(o.getMaxTouchBatchesInFlight()).isEqualTo(4);
    assertThat(o.getReconnectInitialBackoffMs()).isEqualTo(100);
    assertThat(o.getReconnectMaxBackoffMs()).isEqualTo(5_000);
  }

  @Test
  void every_numeric_option_refuses_a_value_out_of_range_naming_the_option_and_the_value() {
    TickwheelClientOptions o = new TickwheelClientOptions();
    assertThatThrownBy(() -> o.setConnectTimeoutMs(0)).hasMessage("connectTimeoutMs must be in [1, 600000], was 0");
    assertThatThrownBy(() -> o.setIdleTimeoutMs(99)).hasMessage("idleTimeoutMs must be in [100, 3600000], was 99");
    assertThatThrownBy(() -> o.setRequestTimeoutMs(-1))
        .hasMessage("requestTimeoutMs must be in [1, 3600000], was -1");
    assertThatThrownBy(() -> o.setMaxInFlight(0)).hasMessage("maxInFlight must be in [1, 1000000], was 0");
    assertThatThrownBy(() -> o.setMaxQueued(-3)).hasMessage("maxQueued must be in [0, 10000000], was -3");
    assertThatThrownBy(() -> o.setMaxTouchBatchIds(10_001))
        .hasMessage("maxTouchBatchIds must be in [1, 10000], was 10001");
    assertThatThrownBy(() -> o.setMaxTouchBatchesInFlight(0))
        .hasMessage("maxTouchBatchesInFlight must be in [1, 64], was 0");
    assertThatThrownBy(() -> o.setReconnectInitialBackoffMs(0))
        .hasMessage("reconnectInitialBackoffMs must be in [1, 60000], was 0");
    assertThatThrownBy(() -> o.setReconnectMaxBackoffMs(600_001))
        .hasMessage("reconnectMaxBackoffMs must be in [1, 600000], was 600001");
    assertThat(o.getMaxInFlight()).as("a refused value changes nothing").isEqualTo(1_024);
  }

  @Test
  void the_endpoint_must_be_an_http_or_https_base_url_and_a_trailing_slash_is_dropped() {
    TickwheelClientOptions o = new TickwheelClientOptions();
    assertThat(o.setEndpoint("https://timers.example:8443/").getEndpoint()).isEqualTo("https://timers.example:8443");
    for (String bad : new String[] {"ftp://h:1", "127.0.0.1:8080", "http://h:1/v1", "http://h:1?x=1", "http://u:p@h:1",
        "http:// bad"}) {
      assertThatThrownBy(() -> o.setEndpoint(bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("endpoint must be http://HOST:PORT or https://HOST:PORT, was '" + bad + "'");
    }
    assertThatThrownBy(() -> o.setEndpoint(null)).hasMessageContaining("endpoint").hasMessageContaining("null");
  }

  @Test
  void a_blank_token_or_one_with_spaces_is_refused_without_echoing_it() {
    TickwheelClientOptions o = new TickwheelClientOptions();
    assertThatThrownBy(() -> o.setToken(" ")).hasMessageStartingWith("token must be printable ASCII");
    assertThatThrownBy(() -> o.setToken("two words")).hasMessageContaining("<9 characters>")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("two words"));
    assertThat(o.setToken(null).getToken()).isNull();
  }

  @Test
  void create_refuses_a_max_backoff_below_the_initial_one_naming_both() {
    TickwheelClientOptions o = new TickwheelClientOptions().setReconnectInitialBackoffMs(500)
        .setReconnectMaxBackoffMs(100);
    assertThatThrownBy(() -> TickwheelClient.create(null, o))
        .hasMessage("reconnectMaxBackoffMs (100) must be >= reconnectInitialBackoffMs (500)");
  }

  @Test
  void the_client_keeps_a_copy_so_later_changes_do_not_reach_it() {
    TickwheelClientOptions o = new TickwheelClientOptions().setMaxInFlight(7);
    TickwheelClientOptions copy = new TickwheelClientOptions(o);
    o.setMaxInFlight(9).setToken("x");
    assertThat(copy.getMaxInFlight()).isEqualTo(7);
    assertThat(copy.getToken()).isNull();
    assertThat(o.toString()).contains("token=***").doesNotContain("token=x");
  }
}
