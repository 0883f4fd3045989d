package io.tickwheel.server.http;

import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.model.TimerSpec;
import io.tickwheel.server.dispatch.Deliveries;
import io.tickwheel.server.route.InternalAnswer;
import io.tickwheel.server.route.InternalAnswer.Done;
import io.tickwheel.server.route.InternalAnswer.Item;
import io.tickwheel.server.route.InternalAnswer.Refused;
import io.tickwheel.server.route.InternalAnswer.Result;
import io.tickwheel.server.route.InternalCall;
import io.tickwheel.server.route.InternalCodec;
import io.tickwheel.server.route.Timers;
import io.tickwheel.server.scheduler.ReadOutcome;
import io.tickwheel.server.scheduler.Refusal;
import io.tickwheel.server.scheduler.WriteOutcome;
import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;

/**
 * The route of the calls between nodes ({@code POST} {@link InternalCodec#PATH}, and each message of a call socket
 * there: {@link InternalSocket}): a node that received a client's call for a partition it does not serve sends it
 * here, to the partition's owner, as an {@link InternalCall}, and gets the owner's outcome back as an {@link InternalAnswer}. Served from this node's own partitions only
 * ({@link Timers#direct()}, {@link Deliveries#direct()}): a call is never forwarded twice.
 *
 * <p>Guarded as the API is: the node token when the cluster has one (checked before the body is read). It also
 * refuses (403) any request a browser sends: one with an {@code Origin} header (browsers send it with every
 * {@code POST}, cross-site or rebound) or without the {@link InternalCodec#NODE_HEADER} header (which a cross-site
 * page cannot send without a preflight this server never approves). So in a cluster without a token the route is
 * as open as the API itself to a program on the network, but no web page can drive it. Bodies up to
 * {@link InternalCodec#MAX_BODY_BYTES}, JSON; another version's path is refused (400) naming the version spoken.
 *
 * <p>Runs on the owner context; the JSON of a large call runs on the codec workers.
 */
public final class InternalApi {

  private final Timers timers;
  private final Deliveries deliveries;
  private final TimerParser parser;
  private final WorkerExecutor codec;

  /**
   * @param timers     the node's timers (served through {@link Timers#direct()})
   * @param deliveries the node's deliveries (served through {@link Deliveries#direct()})
   * @param codec      the workers that decode and encode large calls
   */
  public InternalApi(Timers timers, Deliveries deliveries, TimerParser parser, WorkerExecutor codec) {
    this.timers = timers.direct();
    this.deliveries = deliveries == null ? null : deliveries.direct();
    this.parser = parser;
    this.codec = codec;
  }

  /** Before auth and body: refuses browsers, and a version this node does not speak. */
  public static void guard(RoutingContext rc) {
    if (rc.request().getHeader(HttpHeaders.ORIGIN) != null || rc.request().getHeader(InternalCodec.NODE_HEADER) == null) {
      rc.fail(new ApiException(403, "permission_denied", "the internal route takes calls from cluster nodes only ("
          + InternalCodec.NODE_HEADER + " set, no Origin)", null));
      return;
    }
    String path = rc.request().path();
    if (!path.startsWith("/internal/" + InternalCodec.VERSION + "/")) {
      String version = path.substring("/internal/".length()).split("/", 2)[0];
      rc.fail(ApiException.invalid(null, "internal protocol version \"" + ErrorResponses.shorten(version)
          + "\" is not spoken by this node (it speaks " + InternalCodec.VERSION + ")"));
      return;
    }
    rc.next();
  }

  /** {@code POST} {@link InternalCodec#PATH}: 200 with the call's answer, or the API's error for the whole call. */
  public void handle(RoutingContext rc) {
    Buffer body = rc.body() == null ? null : rc.body().buffer();
    if (body == null || body.length() == 0) {
      throw ApiException.invalid(null, "an internal call needs a body");
    }
    Replies.settle(rc, answer(body), json -> Replies.json(rc, 200, json));
  }

  /**
   * The answer to one call's {@code body} (not empty): its {@link InternalAnswer}'s JSON, the {@code 200} answer's
   * body; or failed with the API's error for the whole call ({@link ApiException}: 400 for a body that is not a call;
   * any other failure is a bug, 500).
   */
  Future<Buffer> answer(Buffer body) {
    long now = timers.now();
    boolean inline = body.length() <= Replies.INLINE_JSON_BYTES;
    Future<InternalCall> decoded = Replies.json(codec, inline, () -> decode(body, now));
    return decoded.compose(call -> serve(call).compose(answer ->
        Replies.json(codec, inline, () -> InternalCodec.encode(answer))));
  }

  private InternalCall decode(Buffer body, long now) {
    try {
      return InternalCodec.decode(body, spec -> TimersApi.parse(parser, spec, now));
    } catch (IllegalArgumentException e) {
      throw ApiException.invalid(null, ErrorResponses.shorten(e.getMessage()));
    }
  }

  private Future<InternalAnswer> serve(InternalCall call) {
    if (call instanceof InternalCall.CreateAll c) {
      List<TimerSpec> valid = new ArrayList<>(c.specs().size());
      c.specs().forEach(s -> {
        if (s != null) {
          valid.add(s);
        }
      });
      return timers.createAll(valid).map(outcomes -> {
        List<Item> items = new ArrayList<>(c.specs().size());
        var next = outcomes.iterator();
        for (int i = 0; i < c.specs().size(); i++) {
          items.add(c.specs().get(i) != null ? item(next.next()) : refused(ErrorResponses.toApi(c.refused()[i], 400)));
        }
        return new InternalAnswer.Items(items);
      });
    }
    if (call instanceof InternalCall.RestoreAll r) {
      return timers.restoreAll(r.timers()).map(outcomes -> {
        List<Item> items = new ArrayList<>(outcomes.size());
        outcomes.forEach(o -> items.add(item(o)));
        return new InternalAnswer.Items(items);
      });
    }
    if (call instanceof InternalCall.TouchAll t) {
      return timers.touchAll(t.ids(), t.delayMs()).map(outcomes -> {
        List<Item> items = new ArrayList<>(outcomes.size());
        outcomes.forEach(o -> items.add(item(o)));
        return new InternalAnswer.Items(items);
      });
    }
    if (call instanceof InternalCall.Upsert u) {
      return timers.upsert(u.spec()).map(InternalApi::item);
    }
    if (call instanceof InternalCall.OnTimer o) {
      String id = o.id();
      return switch (o.op()) {
        case GET -> timers.get(id).map(InternalApi::item);
        case CANCEL -> timers.cancel(id).map(InternalApi::item);
        case PAUSE -> timers.pause(id).map(InternalApi::item);
        case RESUME -> timers.resume(id).map(InternalApi::item);
        case FIRE -> timers.fireNow(id).map(InternalApi::item);
      };
    }
    if (call instanceof InternalCall.Topics t) {
      return timers.topics(t.after(), t.limit(), t.only()).map(o -> o instanceof Refusal r ? refused(r)
          : new InternalAnswer.TopicPage(((ReadOutcome.Topics) o).topics()));
    }
    InternalCall.RetryDelivery r = (InternalCall.RetryDelivery) call;
    if (deliveries == null) {
      return Future.succeededFuture(refused(ApiException.notFound("this node keeps no deliveries")));
    }
    return deliveries.retry(r.id()).map(InternalAnswer.Delivery::new);
  }

  private static Item item(WriteOutcome o) {
    if (o instanceof Refusal r) {
      return refused(r);
    }
    Result result = o instanceof WriteOutcome.Created ? Result.CREATED
        : o instanceof WriteOutcome.Replaced ? Result.REPLACED
        : o instanceof WriteOutcome.Touched ? Result.TOUCHED
        : o instanceof WriteOutcome.Paused ? Result.PAUSED
        : o instanceof WriteOutcome.Resumed ? Result.RESUMED
        : o instanceof WriteOutcome.FiredNow ? Result.FIRED
        : o instanceof WriteOutcome.Cancelled ? Result.CANCELLED : null;
    if (result == null) {
      throw new IllegalArgumentException("not a timer call's outcome: " + o);
    }
    return new Done(result, result == Result.CANCELLED ? null : TimersApi.timer(o));
  }

  private static Item item(ReadOutcome o) {
    if (o instanceof Refusal r) {
      return refused(r);
    }
    return new Done(Result.FOUND, ((ReadOutcome.Found) o).timer());
  }

  private static Refused refused(Refusal r) {
    return refused(OutcomeMapping.error(r));
  }

  private static Refused refused(ApiException e) {
    return new Refused(e.status(), e.code(), e.getMessage(), e.field(), e.retryAfterSeconds());
  }
}
