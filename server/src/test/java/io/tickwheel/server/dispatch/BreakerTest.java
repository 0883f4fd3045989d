package io.tickwheel.server.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BreakerTest {

  @Test
  void opensAfterConsecutiveFailuresThenLetsOneTrialThroughAfterTheOpenTime() {
    Breaker b = new Breaker(3, 1000);
    b.record(true, 10);
    b.record(true, 20);
    b.record(false, 30); // a success resets the count
    b.record(true, 40);
    b.record(true, 50);
    assertThat(b.admit(60)).isZero();
    assertThat(b.state(60)).isEqualTo(Breaker.State.CLOSED);
    b.record(true, 100);
    assertThat(b.state(100)).isEqualTo(Breaker.State.OPEN);
    assertThat(b.admit(500)).as("postponed to the end of the open time").isEqualTo(1100);
    assertThat(b.admit(1100)).as("the trial").isZero();
    assertThat(b.admit(1100)).as("one trial at a time").isEqualTo(2100);
    b.record(true, 1200);
    assertThat(b.admit(1300)).as("the trial failed: open again").isEqualTo(2200);
    assertThat(b.admit(2200)).isZero();
    b.record(false, 2250);
    assertThat(b.state(2250)).isEqualTo(Breaker.State.CLOSED);
    assertThat(b.blank()).isTrue();
    assertThat(b.admit(2260)).isZero();
  }
}
