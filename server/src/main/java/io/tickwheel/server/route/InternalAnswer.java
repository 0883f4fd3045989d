package io.tickwheel.server.route;

import io.tickwheel.core.model.Timer;
import io.tickwheel.server.dispatch.DeliveryOutcome;
import io.tickwheel.server.scheduler.ReadOutcome;
import io.tickwheel.server.scheduler.Refusal;
import io.tickwheel.server.scheduler.TopicInfo;
import io.tickwheel.server.scheduler.WriteOutcome;
import java.util.List;

/**
 * An owner's answer to an {@link InternalCall}: per timer call its {@link Item}, the topics, a delivery's outcome, or
 * a {@link Refused} for the whole call. The receiving node turns it back into the domain outcome the owner's
 * scheduler gave ({@link #write}, {@link #read}), so its edge answers with the owner's status and body. Immutable.
 */
public sealed interface InternalAnswer {

  /** One timer call's outcome. */
  sealed interface Item extends InternalAnswer {}

  /** What a successful timer call did. */
  enum Result {
    CREATED("created"), REPLACED("replaced"), TOUCHED("touched"), PAUSED("paused"), RESUMED("resumed"),
    FIRED("fired"), CANCELLED("cancelled"), FOUND("found");

    final String wire;

    Result(String wire) {
      this.wire = wire;
    }

    static Result ofWire(String s) {
      for (Result r : values()) {
        if (r.wire.equals(s)) {
          return r;
        }
      }
      return null;
    }
  }

  /** A success: the timer as the owner has it after the call ({@code null} for {@link Result#CANCELLED}). */
  record Done(Result result, Timer timer) implements Item {}

  /**
   * A refusal, as the owner's edge answers it: status, error code, message, field ({@code null} for none) and
   * {@code Retry-After} seconds (0 for none). For a whole call, also what a refusing HTTP answer carries.
   */
  record Refused(int status, String code, String message, String field, int retryAfter) implements Item {}

  /** The items of a {@link InternalCall.CreateAll} or {@link InternalCall.TouchAll}, in request order. */
  record Items(List<Item> items) implements InternalAnswer {}

  /** The owner's topics ({@link InternalCall.Topics}). */
  record TopicPage(List<TopicInfo> topics) implements InternalAnswer {}

  /** The outcome of a {@link InternalCall.RetryDelivery}: {@code Requeued} or a delivery refusal. */
  record Delivery(DeliveryOutcome outcome) implements InternalAnswer {}

  /** The write outcome of timer {@code id}'s item. */
  static WriteOutcome write(String id, Item item) {
    if (item instanceof Refused r) {
      return refusal(id, r);
    }
    Done d = (Done) item;
    return switch (d.result()) {
      case CREATED -> new WriteOutcome.Created(d.timer());
      case REPLACED -> new WriteOutcome.Replaced(d.timer());
      case TOUCHED -> new WriteOutcome.Touched(d.timer());
      case PAUSED -> new WriteOutcome.Paused(d.timer());
      case RESUMED -> new WriteOutcome.Resumed(d.timer());
      case FIRED -> new WriteOutcome.FiredNow(d.timer());
      case CANCELLED -> new WriteOutcome.Cancelled(id);
      case FOUND -> throw new IllegalArgumentException("a write answered as a read");
    };
  }

  /** The read outcome of timer {@code id}'s item. */
  static ReadOutcome read(String id, Item item) {
    if (item instanceof Refused r) {
      return refusal(id, r);
    }
    Done d = (Done) item;
    if (d.result() != Result.FOUND) {
      throw new IllegalArgumentException("a read answered as " + d.result().wire);
    }
    return new ReadOutcome.Found(d.timer());
  }

  /**
   * The refusal {@code r} stands for: {@code not_found} and {@code already_exists} of timer {@code id} become
   * {@link Refusal.NotFound} and {@link Refusal.Conflict}; any other is carried verbatim ({@link Refusal.Remote}).
   */
  static Refusal refusal(String id, Refused r) {
    if (id != null && r.status() == 404 && "not_found".equals(r.code())) {
      return new Refusal.NotFound(id);
    }
    if (id != null && r.status() == 409 && "already_exists".equals(r.code())) {
      return new Refusal.Conflict(id);
    }
    return new Refusal.Remote(r.status(), r.code(), r.message(), r.field(), r.retryAfter());
  }
}
