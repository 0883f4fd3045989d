package io.tickwheel.bench.load.peer;

import io.tickwheel.bench.load.FiringSink;
import io.tickwheel.bench.load.TimerTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * Redisson's {@code RDelayedQueue} over an {@code RBlockingQueue} on Redis: the usual "delayed job" recipe for
 * Java on Redis. Durable only as far as the Redis server is: the machine's Redis keeps nothing on disk ({@code save
 * ""}, {@code appendonly no}), so on this machine a Redis restart loses every pending timer.
 *
 * <h2>How it works and how it is driven</h2>
 * <ul>
 *   <li>An element is the string {@code id|dueAtMs} ({@code StringCodec}). {@link #schedule} is
 *       {@code delayedQueue.offerAsync(element, max(0, dueAt - now), MILLISECONDS)}: one Lua script adding the
 *       element to a sorted set (score = due time) and a list; the stage completes when Redis has run it.</li>
 *   <li>Firing is done by the Redisson client, not the server: a client-side task, woken by a pub/sub message and its
 *       own timeout, moves due elements (100 per script run) from the sorted set to the destination list. A timer
 *       fires only while some Redisson client on that queue is running.</li>
 *   <li>One consumer thread reads the destination list: a blocking {@code poll} of up to 200 ms, then
 *       non-blocking {@code poll(512)} while elements remain, and reports each as
 *       {@code sink.fired(id, dueAtMs from the element, now)}.</li>
 *   <li>{@link #scheduleBatch}: {@code RBatch} has no delayed queue, so a batch is one {@code offerAsync} per
 *       timer, all in flight at once over Redisson's connection pool; the stage completes when all have. Not
 *       atomic.</li>
 *   <li>{@link #reschedule}: there is no native reschedule. It is {@code removeAsync(oldElement)} then
 *       {@code offerAsync(newElement)}, not atomic. Redisson's remove is a Lua script that walks the whole pending
 *       list with {@code LINDEX} until it finds the element, so its cost grows with the number of pending timers and
 *       it blocks Redis while it runs. To know the old element this target keeps {@code id -> dueAtMs} of its own
 *       pending timers in memory, capped at {@code maxPending} (default 1,000,000; beyond that {@code schedule}
 *       fails). A remove that finds nothing means the timer already fired: {@link NoSuchElementException}.</li>
 * </ul>
 *
 * <h2>Options (defaults)</h2>
 * {@code redis} ({@value PeerOptions#DEFAULT_REDIS}, loopback only), {@code queue} ({@code tickwheel-bench:redisson}:
 * the destination list; Redisson adds {@code redisson_delay_queue:{queue}},
 * {@code redisson_delay_queue_timeout:{queue}} and a channel), {@code maxPending} (1,000,000). Redisson's own
 * defaults otherwise (connection pool 64, 16 threads, 32 Netty threads), as its docs recommend starting from.
 *
 * <h2>Footprint</h2>
 * Redis holds the timers; this process holds the pending map (bounded, above) and at most 512 read elements.
 * {@link #reset} deletes the three keys above and clears the map. {@link #close} resets, stops the consumer,
 * destroys the delayed queue's transfer task and shuts the client down. It touches no other key.
 *
 * <p>Thread safety: {@code schedule}, {@code scheduleBatch} and {@code reschedule} may be called from any thread;
 * {@code start}, {@code reset} and {@code close} from one thread at a time.
 */
@SuppressWarnings("deprecation") // RDelayedQueue is deprecated in Redisson 4 in favour of RReliableQueue; see PEERS.md
public final class RedissonDelayedQueueTarget implements TimerTarget {

  /** The name the load tool knows this target by. */
  public static final String NAME = "redisson-delayed-queue";

  static final int CONSUMER_BATCH = 512;
  private static final long CONSUMER_WAIT_MS = 200;

  private final String redisUri;
  private final String queueName;
  private final int maxPending;
  private final ConcurrentHashMap<String, Long> pending = new ConcurrentHashMap<>();

  private volatile RedissonClient client;
  private volatile RBlockingQueue<String> queue;
  private volatile RDelayedQueue<String> delayed;
  private volatile Thread consumer;
  private volatile boolean running;

  /** @param options see the class comment; unknown keys are ignored */
  public RedissonDelayedQueueTarget(Map<String, String> options) {
    PeerOptions o = new PeerOptions(options);
    this.redisUri = o.redisUri();
    this.queueName = o.string("queue", "tickwheel-bench:redisson");
    this.maxPending = o.integer("maxPending", 1_000_000, 1, 50_000_000);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void start(FiringSink sink) throws Exception {
    if (sink == null) {
      throw new IllegalArgumentException(NAME + ": sink must be non-null");
    }
    if (client != null) {
      throw new IllegalStateException(NAME + ": already started");
    }
    Config config = new Config();
    config.useSingleServer().setAddress(redisUri);
    RedissonClient c = Redisson.create(config);
    try {
      RBlockingQueue<String> q = c.getBlockingQueue(queueName, StringCodec.INSTANCE);
      RDelayedQueue<String> d = c.getDelayedQueue(q);
      queue = q;
      delayed = d;
      running = true;
      Thread t = new Thread(() -> consume(q, sink), NAME + "-consumer");
      t.setDaemon(true);
      t.start();
      consumer = t;
      client = c;
    } catch (RuntimeException | Error e) {
      running = false;
      c.shutdown();
      throw e;
    }
  }

  private void consume(RBlockingQueue<String> q, FiringSink sink) {
    while (running) {
      try {
        String first = q.poll(CONSUMER_WAIT_MS, TimeUnit.MILLISECONDS);
        if (first == null) {
          continue;
        }
        report(first, sink);
        List<String> more;
        do {
          more = q.poll(CONSUMER_BATCH);
          for (String e : more) {
            report(e, sink);
          }
        } while (more.size() == CONSUMER_BATCH && running);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        if (!running) {
          return;
        }
        try {
          Thread.sleep(100); // Redis unreachable for a moment: Redisson reconnects; try again shortly
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private void report(String element, FiringSink sink) {
    long now = System.currentTimeMillis();
    int bar = element.lastIndexOf('|');
    if (bar <= 0) {
      return; // not ours: this target never writes such an element
    }
    String id = element.substring(0, bar);
    long due;
    try {
      due = Long.parseLong(element.substring(bar + 1));
    } catch (NumberFormatException e) {
      return;
    }
    pending.remove(id, due);
    sink.fired(id, due, now);
  }

  static String element(String id, long dueAtMs) {
    return id + '|' + dueAtMs;
  }

  @Override
  public CompletionStage<Void> schedule(String id, long dueAtMs) {
    String problem = PeerArgs.idProblem(id);
    if (problem != null) {
      return PeerArgs.failed(NAME, problem);
    }
    RDelayedQueue<String> d = delayed;
    if (d == null || client == null) {
      return PeerArgs.notStarted(NAME);
    }
    return offer(d, id, dueAtMs);
  }

  private CompletableFuture<Void> offer(RDelayedQueue<String> d, String id, long dueAtMs) {
    if (pending.size() >= maxPending) {
      return CompletableFuture.failedFuture(new IllegalStateException(
          NAME + ": " + maxPending + " timers already pending (option maxPending); not scheduling '" + id + "'"));
    }
    Long previous = pending.putIfAbsent(id, dueAtMs);
    if (previous != null) {
      return CompletableFuture.failedFuture(
          new IllegalStateException(NAME + ": a timer with id '" + id + "' is already pending"));
    }
    long delay = Math.max(0, dueAtMs - System.currentTimeMillis());
    return d.offerAsync(element(id, dueAtMs), delay, TimeUnit.MILLISECONDS)
        .whenComplete((ok, err) -> {
          if (err != null) {
            pending.remove(id, dueAtMs);
          }
        })
        .toCompletableFuture();
  }

  @Override
  public CompletionStage<Void> scheduleBatch(List<String> ids, long[] dueAtMs) {
    String problem = PeerArgs.batchProblem(ids, dueAtMs);
    if (problem != null) {
      return PeerArgs.failed(NAME, problem);
    }
    RDelayedQueue<String> d = delayed;
    if (d == null || client == null) {
      return PeerArgs.notStarted(NAME);
    }
    List<CompletableFuture<Void>> offers = new ArrayList<>(ids.size());
    for (int i = 0; i < dueAtMs.length; i++) {
      offers.add(offer(d, ids.get(i), dueAtMs[i]));
    }
    return CompletableFuture.allOf(offers.toArray(CompletableFuture[]::new));
  }

  @Override
  public CompletionStage<Void> reschedule(String id, long newDueAtMs) {
    String problem = PeerArgs.idProblem(id);
    if (problem != null) {
      return PeerArgs.failed(NAME, problem);
    }
    RDelayedQueue<String> d = delayed;
    if (d == null || client == null) {
      return PeerArgs.notStarted(NAME);
    }
    Long old = pending.get(id);
    if (old == null) {
      return CompletableFuture.failedFuture(
          new NoSuchElementException(NAME + ": no pending timer with id '" + id + "' (already fired?)"));
    }
    return d.removeAsync(element(id, old)).thenCompose(removed -> {
      if (!removed) {
        return CompletableFuture.failedFuture(
            new NoSuchElementException(NAME + ": no pending timer with id '" + id + "' (already fired)"));
      }
      pending.remove(id, old);
      return offer(d, id, newDueAtMs);
    });
  }

  /**
   * As {@link #reset}: the client and its transfer task stay, warm. With about a million timers queued the delayed
   * queue answered no offer for 120 s (and this tool's map of pending timers outgrew a 1 GB heap), so a warm-up
   * of many passes would stall it.
   */
  @Override
  public void dropWarmup() {
    reset();
  }

  /** Deletes the delayed queue's keys and the destination list, and forgets the pending timers. */
  @Override
  public void reset() {
    RDelayedQueue<String> d = delayed;
    RBlockingQueue<String> q = queue;
    if (d == null || q == null) {
      return;
    }
    d.delete();
    q.delete();
    pending.clear();
  }

  @Override
  public void close() throws Exception {
    RedissonClient c = client;
    client = null;
    if (c == null) {
      return;
    }
    running = false;
    try {
      Thread t = consumer;
      if (t != null) {
        t.join(2 * CONSUMER_WAIT_MS + 1_000);
      }
      reset();
      delayed.destroy();
    } finally {
      delayed = null;
      queue = null;
      c.shutdown();
    }
  }
}
