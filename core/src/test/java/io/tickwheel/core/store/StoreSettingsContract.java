package io.tickwheel.core.store;

import static io.tickwheel.core.store.StoreFixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import org.junit.jupiter.api.Test;

/**
 * The contract of the {@link StoreSettings} part: paused topics and the webhook secret, durable.
 * Run against every store by {@link TimerStoreContract}.
 */
public interface StoreSettingsContract extends StoreUnderTest {

  @Test
  default void theWebhookSecretIsSetOnceAndKeptAcrossCallsAndReopens() throws Exception {
    String first = "whsec_" + "A".repeat(43) + "=";
    String second = "whsec_" + "B".repeat(43) + "=";
    Future<String> a = store().webhookSecret(first);
    Future<String> b = store().webhookSecret(second);
    assertThat(await(a)).isEqualTo(first);
    assertThat(await(b)).as("set if absent: the first one stays").isEqualTo(first);
    await(store().close());
    TimerStore reopened = reopenOrSkip();
    assertThat(await(store().webhookSecret(second))).as("durable across a reopen").isEqualTo(first);
  }

  @Test
  default void noTopicIsPausedInANewStore() {
    assertThat(await(store().pausedTopics())).isEmpty();
  }

  @Test
  default void pausedTopicsAreListedUntilResumedAndPauseAndResumeAreIdempotent() {
    await(store().setTopicPaused("billing", true));
    await(store().setTopicPaused("mail.out", true));
    await(store().setTopicPaused("billing", true));
    assertThat(await(store().pausedTopics())).containsExactlyInAnyOrder("billing", "mail.out");
    await(store().setTopicPaused("billing", false));
    await(store().setTopicPaused("never-paused", false));
    assertThat(await(store().pausedTopics())).containsExactly("mail.out");
  }

  @Test
  default void theSetOfPausedTopicsIsASnapshotTheCallerOwns() {
    await(store().setTopicPaused("a", true));
    java.util.Set<String> seen = await(store().pausedTopics());
    await(store().setTopicPaused("b", true));
    assertThat(seen).containsExactly("a");
    seen.add("c");
    assertThat(await(store().pausedTopics())).containsExactlyInAnyOrder("a", "b");
  }

  @Test
  default void pausedTopicsSurviveAReopen() throws Exception {
    await(store().setTopicPaused("kept", true));
    await(store().setTopicPaused("resumed", true));
    await(store().setTopicPaused("resumed", false));
    await(store().close());
    TimerStore reopened = reopenOrSkip();
    assertThat(await(store().pausedTopics())).containsExactly("kept");
  }
}
