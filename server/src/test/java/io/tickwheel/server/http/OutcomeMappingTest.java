package io.tickwheel.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.model.Kind;
import io.tickwheel.core.model.Misfire;
import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.TimerPage;
import io.tickwheel.server.scheduler.ReadOutcome;
import io.tickwheel.server.dispatch.DeliveryOutcome;
import io.tickwheel.server.scheduler.Refusal;
import io.tickwheel.server.scheduler.TopicInfo;
import io.tickwheel.server.scheduler.WriteOutcome;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class OutcomeMappingTest {

  static final Timer T = new Timer("a", "default", Kind.ONCE, 100, 0, 0, Misfire.FIRE_ONCE, null, 0, 100, 0, 1);

  /** Each refusal with the status, code, field and message the contract answers it with. */
  record Row(Refusal refusal, int status, String code, String field, String message) {}

  static final List<Row> ROWS = List.of(
      new Row(new Refusal.NotFound("a"), 404, "not_found", null, "no timer with id \"a\""),
      new Row(new Refusal.Conflict("a"), 409, "already_exists", "id", "a timer with id \"a\" already exists"),
      new Row(new Refusal.CapacityExceeded(3), 429, "resource_exhausted", null,
          "the server holds its maximum of 3 pending timers (--max-pending); retry later"),
      new Row(new Refusal.TooManyPausedTopics(5), 429, "resource_exhausted", "topic",
          "the server keeps at most 5 paused topics; resume one first"),
      new Row(new Refusal.Busy("a"), 503, "unavailable", null,
          "timer \"a\" is busy (its firing or an earlier write is still being confirmed by the store); the store may be slow or down"),
      new Row(new Refusal.ChangedConcurrently("a"), 503, "unavailable", null, "timer \"a\" changed concurrently; retry"),
      new Row(new Refusal.Recovering(), 503, "unavailable", null, "the server is recovering its timers (the call was not applied); retry shortly"),
      new Row(new Refusal.StoreUnavailable("connection reset", true, true), 503, "unavailable", null,
          "the store is unavailable (the write may have been applied: read the timer before retrying): connection reset"),
      new Row(new Refusal.StoreUnavailable("not connected", true, false), 503, "unavailable", null,
          "the store is unavailable (the write was not applied; retrying is safe): not connected"),
      new Row(new Refusal.StoreUnavailable("connection reset", false, false), 503, "unavailable", null,
          "the store is unavailable: connection reset"),
      new Row(new Refusal.StoreFault("corrupt"), 500, "internal", null, "the store failed: corrupt"),
      new Row(new Refusal.NotOwner(7), 503, "unavailable", null,
          "partition 7 is not served by this node (its owner changed; the call was not applied); retry shortly"),
      new Row(new Refusal.Unrouted("no live node holds partition 3 now", false), 503, "unavailable", null,
          "the call could not be routed to its partition's owner (not applied): no live node holds partition 3 now"),
      new Row(new Refusal.Remote(429, "resource_exhausted", "full", "topic", 0), 429, "resource_exhausted", "topic",
          "full"));

  @Test
  void everyRefusalMapsToItsStatusCodeFieldAndMessage() {
    for (Row r : ROWS) {
      ApiException e = OutcomeMapping.error(r.refusal());
      assertThat(e.status()).as("%s", r.refusal()).isEqualTo(r.status());
      assertThat(e.code()).as("%s", r.refusal()).isEqualTo(r.code());
      assertThat(e.field()).as("%s", r.refusal()).isEqualTo(r.field());
      assertThat(e.getMessage()).as("%s", r.refusal()).isEqualTo(r.message());
    }
  }

  @Test
  void routingRefusalsAskToRetryAfterOneSecondAndARemoteOneKeepsTheOwnersRetryAfter() {
    assertThat(OutcomeMapping.error(new Refusal.NotOwner(1)).retryAfterSeconds()).isEqualTo(1);
    assertThat(OutcomeMapping.error(new Refusal.Unrouted("x", true)).retryAfterSeconds()).isEqualTo(1);
    assertThat(OutcomeMapping.error(new Refusal.Unrouted("x", true)).getMessage())
        .isEqualTo("the call could not be routed to its partition's owner (the write may have been applied: read the "
            + "timer before retrying): x");
    assertThat(OutcomeMapping.error(new Refusal.Remote(503, "unavailable", "m", null, 2)).retryAfterSeconds()).isEqualTo(2);
    assertThat(OutcomeMapping.error(new Refusal.Busy("a")).retryAfterSeconds()).isZero();
  }

  @Test
  void theTableCoversEveryKindOfRefusal() {
    Set<Class<?>> mapped = ROWS.stream().map(r -> r.refusal().getClass()).collect(Collectors.toSet());
    assertThat(mapped).containsExactlyInAnyOrder(Refusal.class.getPermittedSubclasses());
  }

  @Test
  void aRefusalInABatchItemGetsTheSameStatusAndErrorBodyAsASingleCall() {
    ApiException e = OutcomeMapping.error(new Refusal.Conflict("a"));
    assertThat(ErrorResponses.body(e).getJsonObject("error").getMap())
        .isEqualTo(Map.of("code", "already_exists", "message", "a timer with id \"a\" already exists", "field", "id"));
  }

  @Test
  void successesMapToTheContractsStatuses() {
    assertThat(OutcomeMapping.status(new WriteOutcome.Created(T))).isEqualTo(201);
    assertThat(OutcomeMapping.status(new WriteOutcome.Replaced(T))).isEqualTo(200);
    assertThat(OutcomeMapping.status(new WriteOutcome.Touched(T))).isEqualTo(200);
    assertThat(OutcomeMapping.status(new WriteOutcome.Cancelled("a"))).isEqualTo(204);
    assertThat(OutcomeMapping.status(new WriteOutcome.Paused(T))).isEqualTo(200);
    assertThat(OutcomeMapping.status(new WriteOutcome.Resumed(T))).isEqualTo(200);
    assertThat(OutcomeMapping.status(new WriteOutcome.FiredNow(T))).isEqualTo(200);
    assertThat(OutcomeMapping.status(new WriteOutcome.TopicChanged(new TopicInfo("t", 1, true)))).isEqualTo(200);
    assertThat(OutcomeMapping.status(new ReadOutcome.Found(T))).isEqualTo(200);
    assertThat(OutcomeMapping.status(new ReadOutcome.Listed(new TimerPage(List.of(T), null)))).isEqualTo(200);
    assertThat(OutcomeMapping.status(new ReadOutcome.Topics(List.of()))).isEqualTo(200);
  }

  @Test
  void everyDeliveryOutcomeMapsToItsStatus() {
    io.tickwheel.core.delivery.Delivery d = io.tickwheel.core.delivery.Delivery.pending(
        new io.tickwheel.core.model.Firing(3, "a", "default", 1, 100, 100, null),
        io.tickwheel.core.callback.Callback.to("https://example.com/"));
    assertThat(OutcomeMapping.status(new DeliveryOutcome.Found(d))).isEqualTo(200);
    assertThat(OutcomeMapping.status(new DeliveryOutcome.Listed(
        new io.tickwheel.core.store.DeliveryPage(List.of(d), -1)))).isEqualTo(200);
    assertThat(OutcomeMapping.status(new DeliveryOutcome.Requeued(d))).isEqualTo(202);
    List<DeliveryOutcome> refusals = List.of(new DeliveryOutcome.NotFound("msg_3"),
        new DeliveryOutcome.NotDead("msg_3", "pending"), new DeliveryOutcome.Full(5),
        new DeliveryOutcome.StoreFailed("down"), new DeliveryOutcome.Unrouted("no live node holds partition 3"),
        new DeliveryOutcome.Remote(401, "unauthenticated", "missing or wrong bearer token", null, 0));
    assertThat(refusals).extracting(o -> OutcomeMapping.error(o).status()).containsExactly(404, 409, 429, 503, 503, 401);
    assertThat(OutcomeMapping.error(refusals.get(5)).getMessage()).as("the owner's refusal as it is")
        .isEqualTo("missing or wrong bearer token");
    assertThat(OutcomeMapping.error(refusals.get(4)).retryAfterSeconds()).isEqualTo(1);
    assertThat(OutcomeMapping.error(refusals.get(1)).getMessage())
        .isEqualTo("delivery \"msg_3\" is pending; only a dead delivery can be retried");
    assertThat(OutcomeMapping.error(refusals.get(2)).code()).isEqualTo("resource_exhausted");
    Set<Class<?>> covered = new java.util.HashSet<>();
    refusals.forEach(o -> covered.add(o.getClass()));
    covered.addAll(List.of(DeliveryOutcome.Found.class, DeliveryOutcome.Listed.class, DeliveryOutcome.Requeued.class));
    assertThat(covered).containsExactlyInAnyOrder(DeliveryOutcome.class.getPermittedSubclasses());
  }
}
