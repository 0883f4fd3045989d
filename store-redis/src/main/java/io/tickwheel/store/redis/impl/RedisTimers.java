package io.tickwheel.store.redis.impl;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.store.TimerCursor;
import io.tickwheel.core.store.TimerPage;
import io.tickwheel.core.store.TimerTable;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The timers part of a Redis store: the records hash {@code timers} (id → {@link TimerRecord}) and the due index
 * {@code due} (a sorted set, all scores 0, member = 16 hex digits of {@code nextDueAt} + id, so Redis orders members
 * bytewise in the listing order and a cursor is a lex bound). Writes of more than one key are Lua scripts sent by
 * {@link RedisSender} (fenced on a partition store); {@link #createAll} is one {@code MULTI} with variadic commands.
 * Thread safe; every call completes on the caller's context.
 */
public final class RedisTimers implements TimerTable, io.tickwheel.core.store.DueIndex {

  /** The most index entries one filtered {@link #list} call examines. */
  static final int LIST_SCAN_BUDGET = 65_536;
  /** The most index entries one page script examines for a topic filter. */
  static final int SCRIPT_SCAN_BUDGET = 4_096;
  /** The largest {@code limit} of {@link #list}, and of a page of deliveries. */
  public static final int MAX_LIST_LIMIT = 10_000;

  /** The field of the counts hash holding the number of paused timers (see {@code counts.lua}). */
  private static final String PAUSED_FIELD = "*paused";
  /** The field of the counts hash saying the counts cover every stored timer (see {@link #counted}). */
  private static final String COUNTED_FIELD = "*counted";

  /** {@link #counted}'s work, once it has started; guarded by {@code this}. */
  private Future<Void> counted;

  /** The score of every due-index entry. */
  private static final byte[] ZERO = {'0'};

  private final RedisSender send;
  private final RedisKeys keys;

  public RedisTimers(RedisSender send, RedisKeys keys) {
    this.send = send;
    this.keys = keys;
  }

  @Override
  public Future<Void> put(Timer t) {
    try {
      TimerRecord.check(t);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    return send.writeScript(Script.PUT, keys.timerKeys,
        List.of(t.id(), TimerRecord.member(t.nextDueAt(), t.id()), TimerRecord.encode(t)), r -> null);
  }

  @Override
  public Future<Void> putAll(List<Timer> timers) {
    if (timers.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Object> args;
    try {
      args = recordArgs(distinctIds(timers));
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    return send.writeScript(Script.PUT, keys.timerKeys, args, r -> null);
  }

  /** {@code put.lua}'s ARGV: id, due-index member, record per timer (each checked). */
  private static List<Object> recordArgs(List<Timer> timers) {
    List<Object> args = new ArrayList<>(timers.size() * 3);
    for (Timer t : timers) {
      TimerRecord.check(t);
      args.add(t.id());
      args.add(TimerRecord.member(t.nextDueAt(), t.id()));
      args.add(TimerRecord.encode(t));
    }
    return args;
  }

  /** Chunk size of {@code create_absent.lua}'s argument layout (its {@code CHUNK}). */
  private static final int CREATE_ABSENT_CHUNK = 1000;

  /**
   * From how many timers an unfenced createAbsent is the three-step transaction rather than one script: below it,
   * hashing the two scripts' text for {@code EVAL} costs Redis more than the transaction saves.
   */
  static final int CREATE_ABSENT_TX_MIN = 64;

  /** {@code timers} grouped by pause state and topic, in order of first appearance (each timer checked). */
  private static java.util.Collection<List<Timer>> byTopic(List<Timer> timers) {
    java.util.LinkedHashMap<String, List<Timer>> groups = new java.util.LinkedHashMap<>();
    for (Timer t : timers) {
      TimerRecord.check(t);
      groups.computeIfAbsent((t.paused() ? "1" : "0") + t.topic(), k -> new ArrayList<>()).add(t);
    }
    return groups.values();
  }

  /**
   * {@code create_absent.lua}'s ARGV (each timer checked): the timers grouped by topic and pause state, each group as
   * topic, paused flag, count, then chunks of at most {@value #CREATE_ABSENT_CHUNK} laid out as the commands take them
   * (the ids, the {@code ZADD} pairs, the {@code HSET} pairs).
   */
  private static List<Object> createAbsentArgs(List<Timer> timers) {
    java.util.Collection<List<Timer>> groups = byTopic(timers);
    List<Object> args = new ArrayList<>(1 + 3 * groups.size() + 5 * timers.size());
    args.add(Integer.toString(groups.size()));
    for (List<Timer> g : groups) {
      Timer first = g.get(0);
      args.add(first.topic());
      args.add(first.paused() ? "1" : "0");
      args.add(Integer.toString(g.size()));
      for (int base = 0; base < g.size(); base += CREATE_ABSENT_CHUNK) {
        List<Timer> chunk = g.subList(base, Math.min(g.size(), base + CREATE_ABSENT_CHUNK));
        byte[][] ids = new byte[chunk.size()][];
        for (int j = 0; j < ids.length; j++) {
          ids[j] = chunk.get(j).id().getBytes(StandardCharsets.UTF_8);
          args.add(ids[j]);
        }
        for (int j = 0; j < ids.length; j++) {
          args.add(ZERO);
          args.add(TimerRecord.member(chunk.get(j).nextDueAt(), ids[j]));
        }
        for (int j = 0; j < ids.length; j++) {
          args.add(ids[j]);
          args.add(TimerRecord.encode(chunk.get(j)));
        }
      }
    }
    return args;
  }

  /**
   * A large createAbsent on an unfenced store, as one transaction of three commands: {@code create_absent_keep.lua}
   * keeps the records of the ids stored already; one plain {@code HSET} writes every record; then
   * {@code create_absent_index.lua} puts the kept records back and indexes and counts the new ones. The records, the
   * bulk of the arguments, go to Redis's own {@code HSET} instead of through Lua, which makes a created timer about a
   * microsecond cheaper for Redis. The scripts are sent as {@code EVAL} with their text: an {@code EVALSHA} that
   * Redis answered {@code NOSCRIPT} inside the transaction would leave the {@code HSET} applied alone.
   */
  private Future<java.util.Set<String>> createAbsentTx(List<Timer> timers) {
    Request keep = Request.cmd(Command.EVAL).arg(Script.CREATE_ABSENT_KEEP.body()).arg(2).arg(keys.timersKey)
        .arg(keys.createAbsentKeepKey);
    Request hset = Request.cmd(Command.HSET).arg(keys.timersKey);
    java.util.Collection<List<Timer>> groups = byTopic(timers);
    Request index = Request.cmd(Command.EVAL).arg(Script.CREATE_ABSENT_INDEX.body()).arg(5).arg(keys.timersKey)
        .arg(keys.dueKey).arg(keys.topicCountsKey).arg(keys.topicsKey).arg(keys.createAbsentKeepKey)
        .arg(groups.size());
    for (List<Timer> g : groups) {
      Timer first = g.get(0);
      index.arg(first.topic()).arg(first.paused() ? "1" : "0").arg(g.size());
      for (Timer t : g) {
        byte[] id = t.id().getBytes(StandardCharsets.UTF_8);
        keep.arg(id);
        hset.arg(id).arg(TimerRecord.encode(t));
        index.arg(ZERO).arg(TimerRecord.member(t.nextDueAt(), id));
      }
    }
    return send.linkTransaction(List.of(keep, hset, index), "createAbsent", exec -> {
      Response r = exec.get(2);
      java.util.Set<String> found = new HashSet<>();
      for (int i = 0; i < r.size(); i++) {
        found.add(r.get(i).toString());
      }
      return found;
    });
  }

  /**
   * {@inheritDoc}
   *
   * <p>No script and no read: one transaction ({@code MULTI}, one variadic {@code ZADD} of the index entries, one
   * variadic {@code HSET} of the records, {@code EXEC}), atomic as a script is, and sent as one batch. Redis parses
   * the arguments straight into the commands, so a created timer costs it about half the CPU of {@link #putAll}'s
   * script (which reads the old versions and copies every argument through Lua). If an id is stored after all (a
   * caller bug), its record is replaced and its old index entry stays; {@link #list} and {@link #loadAll} skip an
   * entry whose due time disagrees with its record.
   */
  @Override
  public Future<Void> createAll(List<Timer> timers) {
    if (timers.isEmpty()) {
      return Future.succeededFuture();
    }
    if (send.fenced() || send.readOnly()) {
      return putAll(timers); // a transaction cannot check the fence: the fenced put script does the same here
    }
    List<Timer> ts = distinctIds(timers);
    Request zadd = Request.cmd(Command.ZADD).arg(keys.dueKey);
    Request hset = Request.cmd(Command.HSET).arg(keys.timersKey);
    java.util.LinkedHashMap<String, long[]> byTopic = new java.util.LinkedHashMap<>();
    long paused = 0;
    try {
      for (Timer t : ts) {
        TimerRecord.check(t);
        byte[] id = t.id().getBytes(StandardCharsets.UTF_8);
        zadd.arg(ZERO).arg(TimerRecord.member(t.nextDueAt(), id));
        hset.arg(id).arg(TimerRecord.encode(t));
        byTopic.computeIfAbsent(t.topic(), k -> new long[1])[0]++;
        if (t.paused()) {
          paused++;
        }
      }
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    // the per-topic counts (counts.lua), in the same transaction: every id is new, so each one counts in
    List<Request> cmds = new ArrayList<>(3 + byTopic.size());
    cmds.add(zadd);
    cmds.add(hset);
    Request names = Request.cmd(Command.ZADD).arg(keys.topicsKey);
    byTopic.forEach((topic, n) -> {
      cmds.add(Request.cmd(Command.HINCRBY).arg(keys.topicCountsKey).arg(topic).arg(n[0]));
      names.arg(ZERO).arg(topic);
    });
    cmds.add(names);
    if (paused > 0) {
      cmds.add(Request.cmd(Command.HINCRBY).arg(keys.topicCountsKey).arg(PAUSED_FIELD).arg(paused));
    }
    return send.linkTransaction(cmds, "createAll", r -> null);
  }

  /**
   * {@code timers} with only the last of each id (the SPI promises distinct ids; this keeps "the last one wins" if a
   * caller breaks that, which the put script needs: it writes each chunk with variadic commands).
   */
  private static List<Timer> distinctIds(List<Timer> timers) {
    HashSet<String> seen = new HashSet<>(timers.size() * 2);
    for (Timer t : timers) {
      if (!seen.add(t.id())) {
        seen.clear();
        ArrayList<Timer> kept = new ArrayList<>(timers.size());
        for (int i = timers.size() - 1; i >= 0; i--) {
          if (seen.add(timers.get(i).id())) {
            kept.add(timers.get(i));
          }
        }
        Collections.reverse(kept);
        return kept;
      }
    }
    return timers;
  }

  /**
   * {@inheritDoc}
   *
   * <p>One script call: it writes {@code next}'s header in front of the stored payload and answers that payload,
   * so the stored timer is {@code next} with it.
   */
  @Override
  public Future<Timer> update(Timer next, long expectedGeneration) {
    try {
      TimerRecord.check(next);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    return send.writeScript(Script.UPDATE, keys.timerKeys,
        List.of(next.id(), Long.toString(expectedGeneration), TimerRecord.member(next.nextDueAt(), next.id()),
            TimerRecord.header(next)),
        r -> r == null ? null : next.withPayload(TimerRecord.payloadOf(r.toBytes(), 0)));
  }

  /**
   * {@inheritDoc}
   *
   * <p>One script call (every key of the store shares one hash tag, so one slot on a Cluster): per item it writes the
   * header in front of the stored payload when the generation matches, reading the old records with one
   * {@code HMGET} per 1,000 items. One item is {@link #update}.
   */
  @Override
  public Future<List<Timer>> updateAll(List<Timer> next, long[] expectedGenerations) {
    try {
      TimerTable.checkUpdateAll(next, expectedGenerations);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    if (next.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    if (next.size() == 1) {
      // update.lua: the same steps without the batch script's tables (one item is a cluster partition's usual share
      // of a batch touch)
      return update(next.get(0), expectedGenerations[0]).map(t -> Collections.singletonList(t));
    }
    List<Object> args = new ArrayList<>(next.size() * 4);
    try {
      for (int i = 0; i < next.size(); i++) {
        Timer t = next.get(i);
        TimerRecord.check(t);
        args.add(t.id());
        args.add(Long.toString(expectedGenerations[i]));
        args.add(TimerRecord.member(t.nextDueAt(), t.id()));
        args.add(TimerRecord.header(t));
      }
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    List<Timer> ts = List.copyOf(next);
    return send.writeScript(Script.UPDATE_ALL, keys.timerKeys, args, r -> {
      List<Timer> out = new ArrayList<>(ts.size());
      for (int i = 0; i < ts.size(); i++) {
        Response seg = r.get(i);
        out.add(seg == null ? null : ts.get(i).withPayload(TimerRecord.payloadOf(seg.toBytes(), 0)));
      }
      return out;
    });
  }

  @Override
  public Future<Timer> get(String id) {
    return send.read(Request.cmd(Command.HGET).arg(keys.timersKey).arg(id),
        r -> r == null ? null : TimerRecord.decode(id, r.toBytes()));
  }

  @Override
  public Future<Boolean> remove(String id) {
    return send.writeScript(Script.REMOVE, keys.timerKeys, List.of(id), r -> r.toInteger() == 1);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Streams in {@code (nextDueAt, id)} order, a {@code ZRANGE BYLEX} and an {@code HMGET} per batch; the next
   * batch is read only after the sink's future completes. A timer rescheduled meanwhile may be streamed twice (old
   * and new position), one removed meanwhile not at all.
   */
  @Override
  public Future<Long> loadAll(int batchSize, Function<List<Timer>, Future<Void>> sink) {
    if (batchSize < 1) {
      return Future.failedFuture(new IllegalArgumentException("batchSize must be >= 1, was " + batchSize));
    }
    Context ctx = Vertx.currentContext();
    Promise<Long> done = Promise.promise();
    loadFrom("-", batchSize, sink, 0, done);
    return RedisSender.onContext(ctx, done.future());
  }

  private void loadFrom(String start, int batchSize, Function<List<Timer>, Future<Void>> sink, long count,
      Promise<Long> done) {
    loadPage(start, batchSize).onComplete(ar -> {
      if (ar.failed()) {
        done.fail(ar.cause());
        return;
      }
      Page p = ar.result();
      if (p.lastMember == null) {
        done.complete(count);
        return;
      }
      long total = count + p.timers.size();
      Future<Void> sunk;
      try {
        sunk = p.timers.isEmpty() ? Future.succeededFuture()
            : Objects.requireNonNull(sink.apply(p.timers), "the sink returned null");
      } catch (RuntimeException e) {
        done.fail(e);
        return;
      }
      sunk.onComplete(s -> {
        if (s.failed()) {
          done.fail(s.cause());
        } else if (p.exhausted) {
          done.complete(total);
        } else {
          loadFrom("(" + p.lastMember, batchSize, sink, total, done);
        }
      });
    });
  }

  /**
   * One recovery page with two plain commands, {@code ZRANGE due (cursor + BYLEX LIMIT 0 n} then {@code HMGET} of
   * those ids: no script, so Redis copies nothing through Lua (several times cheaper for big pages). A timer removed
   * between the two commands is skipped, and so is an index entry whose due time is not its record's.
   */
  private Future<Page> loadPage(String start, int batchSize) {
    return loadPage(start, "+", batchSize);
  }

  /** {@link #loadPage(String, int)} up to {@code end}, a lex bound of the due index ({@code "+"}: none). */
  private Future<Page> loadPage(String start, String end, int batchSize) {
    Request range = Request.cmd(Command.ZRANGE).arg(keys.dueKey).arg(start).arg(end).arg("BYLEX").arg("LIMIT").arg(0)
        .arg(batchSize);
    return send.read(range, r -> {
      List<String> members = new ArrayList<>(r == null ? 0 : r.size());
      if (r != null) {
        for (Response m : r) {
          members.add(m.toString());
        }
      }
      return members;
    }).compose(members -> {
      if (members.isEmpty()) {
        return Future.succeededFuture(new Page(List.of(), true, null));
      }
      Request get = Request.cmd(Command.HMGET).arg(keys.timersKey);
      for (String m : members) {
        get.arg(TimerRecord.idOfMember(m));
      }
      return send.read(get, r -> {
        List<Timer> ts = new ArrayList<>(members.size());
        for (int i = 0; i < members.size(); i++) {
          Response v = r.get(i);
          String m = members.get(i);
          if (v != null) {
            Timer t = TimerRecord.decode(TimerRecord.idOfMember(m), v.toBytes());
            if (TimerRecord.isMemberOf(m, t)) { // else an entry left behind by createAll: not this timer's place
              ts.add(t);
            }
          }
        }
        return new Page(ts, members.size() < batchSize, members.get(members.size() - 1));
      });
    });
  }

  /**
   * {@inheritDoc}
   *
   * <p>There is one index, by due time; a topic filter examines it in order, at most {@value #LIST_SCAN_BUDGET}
   * entries per call, in script calls of at most {@value #SCRIPT_SCAN_BUDGET} entries (Redis serves other clients in
   * between). When the budget runs out before {@code limit} matches, the page is shorter and {@code next} points
   * after the last examined timer, so following {@code next} still lists every match exactly once.
   */
  @Override
  public Future<TimerPage> list(String topic, TimerCursor after, int limit) {
    if (limit < 1 || limit > MAX_LIST_LIMIT) {
      return Future.failedFuture(new IllegalArgumentException(
          "limit must be in [1, " + MAX_LIST_LIMIT + "], was " + limit));
    }
    Context ctx = Vertx.currentContext();
    String start = after == null ? "-" : "(" + TimerRecord.member(after.dueAt(), after.id());
    Promise<TimerPage> done = Promise.promise();
    listStep(topic == null ? "" : topic, start, limit, new ArrayList<>(), 0, done);
    return RedisSender.onContext(ctx, done.future());
  }

  private void listStep(String topic, String start, int limit, List<Timer> acc, int examined,
      Promise<TimerPage> done) {
    int want = limit + 1 - acc.size();
    int budget = topic.isEmpty() ? want : SCRIPT_SCAN_BUDGET;
    page(start, want, topic, budget).onComplete(ar -> {
      if (ar.failed()) {
        done.fail(ar.cause());
        return;
      }
      Page p = ar.result();
      acc.addAll(p.timers);
      int seen = examined + (topic.isEmpty() ? p.timers.size() : budget);
      if (acc.size() > limit) {
        List<Timer> ts = new ArrayList<>(acc.subList(0, limit));
        done.complete(new TimerPage(ts, TimerCursor.after(ts.get(limit - 1))));
      } else if (p.exhausted || p.lastMember == null) {
        done.complete(new TimerPage(acc, null));
      } else if (seen >= LIST_SCAN_BUDGET) {
        String id = TimerRecord.idOfMember(p.lastMember);
        long due = TimerRecord.parseDueHex(p.lastMember.substring(0, 16));
        done.complete(new TimerPage(acc, new TimerCursor(due, id)));
      } else {
        listStep(topic, "(" + p.lastMember, limit, acc, seen, done);
      }
    });
  }

  private record Page(List<Timer> timers, boolean exhausted, String lastMember) {}

  private Future<Page> page(String start, int want, String topic, int budget) {
    return send.readScript(Script.PAGE, keys.timerKeys,
        List.of(start, Integer.toString(want), topic, Integer.toString(budget)), r -> {
          boolean exhausted = r.get(0).toLong() == 1;
          String last = r.get(1).toString();
          int n = (r.size() - 2) / 2;
          List<Timer> ts = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            String member = r.get(2 + 2 * i).toString();
            ts.add(TimerRecord.decode(TimerRecord.idOfMember(member), r.get(3 + 2 * i).toBytes()));
          }
          return new Page(ts, exhausted, last.isEmpty() ? null : last);
        });
  }

  /**
   * {@inheritDoc}
   *
   * <p>{@code ZRANGE due [from (to BYLEX LIMIT 0 limit} (the members' 16-hex-digit due prefix makes the time bounds
   * lex bounds), then one {@code HMGET} of those ids: two plain commands, no script. An index entry whose record is
   * gone or disagrees is skipped.
   */
  @Override
  public Future<TimerPage> dueBetween(long fromMs, long toMs, TimerCursor after, int limit) {
    try {
      io.tickwheel.core.store.DueIndex.checkLimit(limit);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    if (toMs <= fromMs) {
      return Future.succeededFuture(new TimerPage(List.of(), null));
    }
    Context ctx = Vertx.currentContext();
    String lo = TimerRecord.member(fromMs, "");
    String start = "[" + lo;
    if (after != null) {
      String a = TimerRecord.member(after.dueAt(), after.id());
      if (a.compareTo(lo) >= 0) {
        start = "(" + a;
      }
    }
    String end = "(" + TimerRecord.member(toMs, "");
    return RedisSender.onContext(ctx, loadPage(start, end, limit).map(p -> {
      if (p.exhausted || p.lastMember == null) {
        return new TimerPage(p.timers, null);
      }
      return new TimerPage(p.timers, new TimerCursor(TimerRecord.parseDueHex(p.lastMember.substring(0, 16)),
          TimerRecord.idOfMember(p.lastMember)));
    }));
  }

  /**
   * {@inheritDoc} One script call ({@code create_absent.lua}; behind the fence on a partition store), or from
   * {@value #CREATE_ABSENT_TX_MIN} timers on an unfenced store one transaction ({@link #createAbsentTx}).
   */
  @Override
  public Future<java.util.Set<String>> createAbsent(List<Timer> timers) {
    List<Object> args;
    try {
      io.tickwheel.core.store.DueIndex.checkCreateAbsent(timers);
      if (timers.size() >= CREATE_ABSENT_TX_MIN && !send.fenced() && !send.readOnly()) {
        return createAbsentTx(timers);
      }
      args = createAbsentArgs(timers);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    if (timers.isEmpty()) {
      return Future.succeededFuture(new HashSet<>());
    }
    return send.writeScript(Script.CREATE_ABSENT, keys.timerKeys, args, r -> {
      java.util.Set<String> found = new HashSet<>();
      if (r != null) {
        for (int i = 0; i < r.size(); i++) {
          found.add(r.get(i).toString());
        }
      }
      return found;
    });
  }

  /** {@inheritDoc} One {@code HMGET} of the timers hash. */
  @Override
  public Future<java.util.Set<String>> storedIds(List<String> ids) {
    if (ids.size() > MAX_DUE_LIMIT) {
      return Future.failedFuture(new IllegalArgumentException("at most " + MAX_DUE_LIMIT + " ids, was " + ids.size()));
    }
    if (ids.isEmpty()) {
      return Future.succeededFuture(new HashSet<>());
    }
    Context ctx = Vertx.currentContext();
    Request get = Request.cmd(Command.HMGET).arg(keys.timersKey);
    ids.forEach(get::arg);
    return RedisSender.onContext(ctx, send.read(get, r -> {
      java.util.Set<String> found = new HashSet<>();
      for (int i = 0; i < ids.size(); i++) {
        if (r.get(i) != null) {
          found.add(ids.get(i));
        }
      }
      return found;
    }));
  }

  /**
   * {@inheritDoc}
   *
   * <p>{@code ZRANGE topics (after + BYLEX LIMIT 0 limit}, then one {@code HMGET} of their counts (a topic whose
   * count is gone between the two is left out).
   */
  @Override
  public Future<List<io.tickwheel.core.store.TopicCount>> topicCounts(String after, int limit) {
    try {
      io.tickwheel.core.store.DueIndex.checkLimit(limit);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    Context ctx = Vertx.currentContext();
    return RedisSender.onContext(ctx, counted().compose(v -> topicPage(after, limit)));
  }

  private Future<List<io.tickwheel.core.store.TopicCount>> topicPage(String after, int limit) {
    Request range = Request.cmd(Command.ZRANGE).arg(keys.topicsKey).arg(after == null ? "-" : "(" + after).arg("+")
        .arg("BYLEX").arg("LIMIT").arg(0).arg(limit);
    return send.read(range, r -> {
      List<String> names = new ArrayList<>(r == null ? 0 : r.size());
      if (r != null) {
        for (Response m : r) {
          names.add(m.toString());
        }
      }
      return names;
    }).compose(names -> {
      if (names.isEmpty()) {
        return Future.succeededFuture(List.<io.tickwheel.core.store.TopicCount>of());
      }
      Request get = Request.cmd(Command.HMGET).arg(keys.topicCountsKey);
      names.forEach(get::arg);
      return send.read(get, r -> {
        List<io.tickwheel.core.store.TopicCount> out = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
          Response v = r.get(i);
          if (v != null && v.toLong() > 0) {
            out.add(new io.tickwheel.core.store.TopicCount(names.get(i), v.toLong()));
          }
        }
        return out;
      });
    });
  }

  /** {@inheritDoc} {@code HGET} of the counts hash. */
  @Override
  public Future<Long> topicCount(String topic) {
    Context ctx = Vertx.currentContext();
    return RedisSender.onContext(ctx, counted().compose(v -> send.read(
        Request.cmd(Command.HGET).arg(keys.topicCountsKey).arg(topic), r -> r == null ? 0L : Math.max(0L, r.toLong()))));
  }

  /** {@inheritDoc} {@code HGET} of the counts hash's {@code *paused} field. */
  @Override
  public Future<Long> pausedCount() {
    Context ctx = Vertx.currentContext();
    return RedisSender.onContext(ctx, counted().compose(v -> send.read(
        Request.cmd(Command.HGET).arg(keys.topicCountsKey).arg(PAUSED_FIELD),
        r -> r == null ? 0L : Math.max(0L, r.toLong()))));
  }

  /**
   * Makes the per-topic and paused counts cover every stored timer: nothing when the counts hash says so (field
   * {@code *counted}); else, for data written before the counts, counts the stored timers once (in pages of the due
   * index, as {@link #loadAll}) and replaces the counts with one transaction. Runs once per store object (again after
   * a failure); the count reads wait for it. Must complete before this store's first write: a write made while the
   * timers are being counted may be lost from the counts (a single node's {@code open} runs it; a partition's
   * recovery reads the counts before it writes). Not fenced: a read-only store only reads.
   */
  public Future<Void> counted() {
    synchronized (this) {
      if (counted == null || counted.failed()) {
        counted = send.read(Request.cmd(Command.HEXISTS).arg(keys.topicCountsKey).arg(COUNTED_FIELD),
            r -> r != null && r.toInteger() == 1).compose(done -> done ? Future.succeededFuture() : recount());
      }
      return counted;
    }
  }

  private Future<Void> recount() {
    java.util.TreeMap<String, long[]> byTopic = new java.util.TreeMap<>();
    long[] paused = {0};
    Promise<Long> scanned = Promise.promise();
    loadFrom("-", 1_000, batch -> {
      for (Timer t : batch) {
        byTopic.computeIfAbsent(t.topic(), k -> new long[1])[0]++;
        if (t.paused()) {
          paused[0]++;
        }
      }
      return Future.succeededFuture();
    }, 0, scanned);
    return scanned.future().compose(n -> {
      if (send.readOnly()) {
        return Future.succeededFuture();
      }
      Request set = Request.cmd(Command.HSET).arg(keys.topicCountsKey).arg(PAUSED_FIELD).arg(paused[0])
          .arg(COUNTED_FIELD).arg(1);
      Request names = Request.cmd(Command.ZADD).arg(keys.topicsKey);
      byTopic.forEach((topic, c) -> {
        set.arg(topic).arg(c[0]);
        names.arg(ZERO).arg(topic);
      });
      List<Request> cmds = new ArrayList<>(4);
      cmds.add(Request.cmd(Command.DEL).arg(keys.topicCountsKey).arg(keys.topicsKey));
      cmds.add(set);
      if (!byTopic.isEmpty()) {
        cmds.add(names);
      }
      return send.linkTransaction(cmds, "recount", r -> null);
    });
  }

  /** {@inheritDoc} {@code HLEN} of the timers hash. */
  @Override
  public Future<Long> timerCount() {
    Context ctx = Vertx.currentContext();
    return RedisSender.onContext(ctx, send.read(Request.cmd(Command.HLEN).arg(keys.timersKey),
        r -> r == null ? 0L : r.toLong()));
  }
}
