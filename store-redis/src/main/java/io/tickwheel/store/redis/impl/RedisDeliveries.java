package io.tickwheel.store.redis.impl;

import io.tickwheel.core.delivery.Delivery;
import io.tickwheel.core.delivery.DeliveryJson;
import io.tickwheel.core.delivery.DeliveryState;
import io.tickwheel.core.store.DeliveryPage;
import io.tickwheel.core.store.DeliveryTable;
import io.tickwheel.core.store.Retention;
import io.tickwheel.core.store.StoreFaultException;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The deliveries part of a Redis store: the records hash {@code dlv} (seq → {@link DeliveryRecord}) and one sorted
 * set of seqs per state ({@code dlv:pending}, …) and in all ({@code dlv:all}), scored by seq, and the position of the
 * trim's age check ({@code dlv:trim-at}). Records are created by
 * {@code fire.lua} with their firing; replacing one is a compare-and-set script, fenced on a partition store.
 * Thread safe; every call completes on the caller's context.
 */
public final class RedisDeliveries implements DeliveryTable {

  /**
   * The most finished deliveries one trim script removes by count; a trim repeats the script (other clients run in
   * between) while it reports more to remove.
   */
  static final int DELIVERY_TRIM_BUDGET = 1_000;
  /**
   * The finished deliveries one trim script checks by age, from where the previous one stopped: a trim every 10 s
   * with nothing to remove reads 100 records per partition, and an old record is reached within (finished / 100)
   * trims (100,000 finished, the default count: under 3 h of a 7-day retention).
   */
  static final int DELIVERY_AGE_CHECK_BUDGET = 100;

  private final RedisSender send;
  private final RedisKeys keys;
  private final QuietTrim quiet = new QuietTrim();

  public RedisDeliveries(RedisSender send, RedisKeys keys) {
    this.send = send;
    this.keys = keys;
  }

  private Delivery decodeOrFault(long seq, Response r) {
    try {
      return DeliveryRecord.decode(seq, r.toBytes());
    } catch (IllegalArgumentException e) {
      throw new StoreFaultException("corrupt delivery record " + seq + " in " + send.link().where() + ": " + e.getMessage(),
          e, false);
    }
  }

  @Override
  public Future<Delivery> getDelivery(long seq) {
    return send.linkRead(Request.cmd(Command.HGET).arg(keys.deliveriesKey).arg(Long.toString(seq)),
        r -> r == null ? null : decodeOrFault(seq, r));
  }

  @Override
  public Future<DeliveryPage> listDeliveries(DeliveryState state, long afterSeq, int limit) {
    if (limit < 1 || limit > RedisTimers.MAX_LIST_LIMIT) {
      return Future.failedFuture(new IllegalArgumentException("limit must be 1.." + RedisTimers.MAX_LIST_LIMIT + ", was " + limit));
    }
    String index = state == null ? keys.allDeliveriesKey : keys.deliveryStateKeys[state.ordinal()];
    return send.linkEval(Script.PAGE_DELIVERIES, List.of(keys.deliveriesKey, index),
        List.of(Long.toString(afterSeq), Integer.toString(limit)), r -> {
          List<Delivery> page = new ArrayList<>(Math.min(limit, r.size() / 2));
          boolean more = false;
          for (int i = 0; i + 1 < r.size(); i += 2) {
            if (page.size() == limit) {
              more = true;
              break;
            }
            Response rec = r.get(i + 1);
            if (rec != null) {
              page.add(decodeOrFault(r.get(i).toLong(), rec));
            }
          }
          return new DeliveryPage(page, more && !page.isEmpty() ? page.get(page.size() - 1).seq() : -1);
        });
  }

  @Override
  public Future<Boolean> updateDelivery(Delivery d, DeliveryState expected) {
    Objects.requireNonNull(d, "d");
    quiet.wrote();
    List<String> k = List.of(keys.deliveriesKey, keys.deliveryStateKeys[0], keys.deliveryStateKeys[1],
        keys.deliveryStateKeys[2]);
    return send.writeScript(Script.UPDATE_DELIVERY, k, List.of(Long.toString(d.seq()),
        Integer.toString(d.state().ordinal()), new String(DeliveryJson.encode(d), StandardCharsets.UTF_8),
        Integer.toString(expected == null ? -1 : expected.ordinal())), r -> r.toInteger() == 1);
  }

  @Override
  public Future<Long> loadPendingDeliveries(int batchSize, Function<List<Delivery>, Future<Void>> sink) {
    if (batchSize < 1) {
      return Future.failedFuture(new IllegalArgumentException("batchSize must be >= 1, was " + batchSize));
    }
    Objects.requireNonNull(sink, "sink");
    return DeliveryTable.pagePending(this, Math.min(batchSize, RedisTimers.MAX_LIST_LIMIT), sink);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Not sent (answered 0) when the last trim left no finished delivery and this store changed none since
   * ({@link QuietTrim}): only {@link #updateDelivery} finishes one.
   */
  @Override
  public Future<Long> trimDeliveries(Retention retention, long nowMs) {
    if (quiet.skip(retention, nowMs)) {
      return Future.succeededFuture(0L);
    }
    long cutoff = retention.cutoff(nowMs);
    long writes = quiet.beforeTrim();
    return send.writeScriptUntilDone(Script.TRIM_DELIVERIES, keys.trimDeliveriesKeys,
        List.of(Long.toString(retention.maxCount()), Long.toString(cutoff), Integer.toString(DELIVERY_TRIM_BUDGET),
            Integer.toString(DELIVERY_AGE_CHECK_BUDGET))).map(r -> {
              if (r[1] == 0) {
                quiet.trimmed(retention, writes, nowMs, Long.MAX_VALUE);
              } else {
                quiet.forget();
              }
              return r[0];
            }).onFailure(e -> quiet.forget());
  }

  @Override
  public Future<Long> countDeliveries(DeliveryState state) {
    return send.linkRead(Request.cmd(Command.ZCARD).arg(keys.deliveryStateKeys[state.ordinal()]), Response::toLong);
  }
}
