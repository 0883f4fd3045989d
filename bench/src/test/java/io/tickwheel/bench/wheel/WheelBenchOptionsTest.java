package io.tickwheel.bench.wheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The wheel report's command line; needs no benchmark run. */
class WheelBenchOptionsTest {

  @Test
  void theDefaultsAreTheQuickConfiguration() {
    WheelBenchOptions o = WheelBenchOptions.parse(new String[0]);
    assertThat(o.workloads()).isEqualTo("schedule|cancel|churn|expireDrain");
    assertThat(o.peers()).isEqualTo(Peers.NAMES);
    assertThat(o.pending()).containsExactly("10000", "1000000");
    assertThat(o.warmup()).isEqualTo(1);
    assertThat(o.iterations()).isEqualTo(3);
    assertThat(o.timeMs()).isEqualTo(800);
    assertThat(o.bytesTimers()).isEqualTo(1_000_000);
    assertThat(o.profilers()).isEmpty();
    assertThat(o.log().getName()).isEqualTo("wheel-bench-jmh.log");
  }

  @Test
  void everyOptionTheScriptsUseIsParsedAndTheLastLogWins() {
    WheelBenchOptions o = WheelBenchOptions.parse(new String[] {"--log", "bench/target/wheel-bench-jmh.log",
        "--workloads", "churn,cancel", "--peers", "netty,kafka,netty", "--pending=1000000", "--warmup", "0",
        "--iterations", "5", "--time", "100", "--prof", "gc", "--prof", "stack", "--bytes-timers", "0",
        "--log", "/tmp/x.log"});
    assertThat(o.workloads()).isEqualTo("churn|cancel");
    assertThat(o.peers()).containsExactly("ours", "netty", "kafka");
    assertThat(o.pending()).containsExactly("1000000");
    assertThat(List.of(o.warmup(), o.iterations(), (int) o.timeMs(), o.bytesTimers())).containsExactly(0, 5, 100, 0);
    assertThat(o.profilers()).containsExactly("gc", "stack");
    assertThat(o.log()).isEqualTo(new File("/tmp/x.log"));
  }

  @Test
  void badOptionsAreRefusedNamingTheOptionAndValue() {
    assertThatThrownBy(() -> WheelBenchOptions.parse(new String[] {"--peers", "ours,quartz"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--peers").hasMessageContaining("'quartz'");
    assertThatThrownBy(() -> WheelBenchOptions.parse(new String[] {"--iterations", "0"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--iterations").hasMessageContaining("'0'");
    assertThatThrownBy(() -> WheelBenchOptions.parse(new String[] {"--time", "fast"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--time").hasMessageContaining("fast");
    assertThatThrownBy(() -> WheelBenchOptions.parse(new String[] {"--pending", "10k"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--pending").hasMessageContaining("10k");
    assertThatThrownBy(() -> WheelBenchOptions.parse(new String[] {"--forks", "2"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--forks");
    assertThatThrownBy(() -> WheelBenchOptions.parse(new String[] {"--log"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--log");
  }

  @Test
  void helpIsAskedForAndListsEveryOption() {
    assertThat(WheelBenchOptions.parse(new String[] {"--help"}).helpRequested()).isTrue();
    assertThat(WheelBenchOptions.usage()).contains("--workloads", "--peers", "--pending", "--warmup", "--iterations",
        "--time", "--prof", "--bytes-timers", "--log", "--help");
  }
}
