package io.tickwheel.bench.load.peer;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceCurrentlyExecutingException;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceNotFoundException;
import com.github.kagkarlsson.scheduler.task.SchedulableInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tickwheel.bench.load.FiringSink;
import io.tickwheel.bench.load.TimerTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletionStage;

/**
 * db-scheduler in its only mode (durable: one PostgreSQL table), configured as its README recommends for
 * throughput.
 *
 * <h2>How it is driven</h2>
 * <ul>
 *   <li>One {@code OneTimeTask<Void>} named {@value #TASK_NAME}; a timer is an instance whose instance id is the
 *       timer's id.</li>
 *   <li>{@link #schedule}: {@code scheduleIfNotExists(instance, dueAt)}, one {@code INSERT} committed before it
 *       returns; an id already pending fails the stage with {@link IllegalStateException}.</li>
 *   <li>{@link #scheduleBatch}: {@code scheduleBatch(List<SchedulableInstance>)}, db-scheduler's bulk API (JDBC
 *       batch inserts); durable when it returns. Not atomic: db-scheduler commits it in chunks.</li>
 *   <li>{@link #reschedule}: {@code reschedule(taskInstanceId, newDueAt)}, a read and an optimistic
 *       {@code UPDATE}; fails with {@link NoSuchElementException} when the timer is no longer pending (fired, or
 *       picked for execution).</li>
 *   <li>A firing is reported from the execution handler on a db-scheduler worker thread as
 *       {@code sink.fired(id, execution time, now)}; the execution time is the due time as stored.</li>
 *   <li>The client API is blocking: calls run on {@code clientThreads} threads ({@link BlockingCalls}, at most
 *       10,000 waiting).</li>
 * </ul>
 *
 * <h2>How it is tuned (options, defaults)</h2>
 * <ul>
 *   <li>{@code jdbcUrl} ({@value PeerOptions#DEFAULT_JDBC_URL}), {@code jdbcUser} ({@code postgres}),
 *       {@code jdbcPassword} (empty); loopback only. HikariCP pool of {@code threads + clientThreads + 2}
 *       connections (workers, callers, the poller and the housekeeper).</li>
 *   <li>{@code schema} ({@code dbscheduler_bench}): the table {@code <schema>.scheduled_tasks} with the indexes of
 *       db-scheduler's documented PostgreSQL DDL; created when missing, never dropped.</li>
 *   <li>{@code threads} (10, db-scheduler's default): executor threads.</li>
 *   <li>Polling strategy {@code lock-and-fetch} ({@code select ... for update skip locked}), which the README
 *       recommends above 1,000 executions/s and supports on PostgreSQL, with its high-throughput fractions
 *       {@code (1.0, 4.0)}: a fetch picks up to 4 &times; threads due executions and the next fetch starts as soon
 *       as no more than 1 &times; threads remain.</li>
 *   <li>{@code pollingIntervalMs} (100): how often the scheduler looks for due executions when idle. The README's
 *       default is 10 s and it says precision depends on it; 100 ms is a timer-service setting that still costs
 *       PostgreSQL only ten cheap index queries a second. Fetches after a full batch do not wait for it.</li>
 *   <li>{@code enableImmediateExecution()}: a timer scheduled at or before now runs without waiting for the next
 *       poll.</li>
 *   <li>Fixed scheduler name {@code tickwheel-bench}; shutdown waits at most 5 s for running executions.</li>
 * </ul>
 *
 * <h2>Statistics</h2>
 * The machine's PostgreSQL runs with autovacuum off; a {@link PgAnalyzer} runs {@code ANALYZE} on the table every
 * 5 s, as autovacuum would, so the polling query keeps using the {@code execution_time} index.
 *
 * <h2>Footprint</h2>
 * Nothing per timer in memory beyond a fetched batch (at most 4 &times; threads executions). {@link #reset} deletes
 * this task's rows ({@code DELETE ... WHERE task_name = 'tickwheel-bench'}); {@link #close} resets, stops the
 * scheduler and closes the pool. The table stays.
 *
 * <p>Thread safety: {@code schedule}, {@code scheduleBatch} and {@code reschedule} may be called from any thread;
 * {@code start}, {@code reset} and {@code close} from one thread at a time.
 */
public final class DbSchedulerTarget implements TimerTarget {

  /** The name the load tool knows this target by. */
  public static final String NAME = "db-scheduler";
  /** The one task every timer is an instance of. */
  public static final String TASK_NAME = "tickwheel-bench";

  /**
   * db-scheduler's documented PostgreSQL table and indexes ({@code postgresql_tables.sql} in its repository,
   * linked from the README), run with {@code search_path} set to the peer's schema.
   */
  static final List<String> DDL = List.of(
      "create table scheduled_tasks ("
          + " task_name text not null,"
          + " task_instance text not null,"
          + " task_data bytea,"
          + " execution_time timestamp with time zone not null,"
          + " picked boolean not null,"
          + " picked_by text,"
          + " last_success timestamp with time zone,"
          + " last_failure timestamp with time zone,"
          + " consecutive_failures int,"
          + " last_heartbeat timestamp with time zone,"
          + " version bigint not null,"
          + " priority smallint,"
          + " primary key (task_name, task_instance))",
      "create index execution_time_idx on scheduled_tasks (execution_time)",
      "create index last_heartbeat_idx on scheduled_tasks (last_heartbeat)",
      "create index priority_execution_time_idx on scheduled_tasks (priority desc, execution_time asc)");

  private static final int CLIENT_QUEUE = 10_000;

  private final String jdbcUrl;
  private final String user;
  private final String password;
  private final String schema;
  private final int threads;
  private final int clientThreads;
  private final int pollingIntervalMs;

  private volatile HikariDataSource dataSource;
  private volatile Scheduler scheduler;
  private volatile OneTimeTask<Void> task;
  private volatile BlockingCalls calls;
  private volatile PgAnalyzer analyzer;

  /** @param options see the class comment; unknown keys are ignored */
  public DbSchedulerTarget(Map<String, String> options) {
    PeerOptions o = new PeerOptions(options);
    this.jdbcUrl = o.postgresJdbcUrl();
    this.user = o.string("jdbcUser", "postgres");
    this.password = o.string("jdbcPassword", "");
    this.schema = o.sqlIdentifier("schema", "dbscheduler_bench");
    this.threads = o.integer("threads", 10, 1, 200);
    this.clientThreads = o.integer("clientThreads", 8, 1, 200);
    this.pollingIntervalMs = o.integer("pollingIntervalMs", 100, 1, 600_000);
  }

  @Override
  public String name() {
    return NAME;
  }

  /** The table this target uses, schema-qualified. */
  String table() {
    return schema + ".scheduled_tasks";
  }

  /** Pool size: workers, callers, the poller and the housekeeper. */
  int poolSize() {
    return threads + clientThreads + 2;
  }

  @Override
  public void start(FiringSink sink) throws Exception {
    if (sink == null) {
      throw new IllegalArgumentException(NAME + ": sink must be non-null");
    }
    if (scheduler != null) {
      throw new IllegalStateException(NAME + ": already started");
    }
    HikariConfig cfg = new HikariConfig();
    cfg.setPoolName(NAME + "-pool");
    cfg.setJdbcUrl(jdbcUrl);
    cfg.setUsername(user);
    cfg.setPassword(password);
    cfg.setMaximumPoolSize(poolSize());
    HikariDataSource ds = new HikariDataSource(cfg);
    try {
      try (Connection c = ds.getConnection()) {
        PgSchema.ensure(c, schema, "scheduled_tasks", DDL);
      }
      analyzer = new PgAnalyzer(jdbcUrl, user, password, List.of(table()), NAME + "-analyze");
      OneTimeTask<Void> t = Tasks.oneTime(TASK_NAME).execute((instance, context) ->
          sink.fired(instance.getId(), context.getExecution().executionTime.toEpochMilli(),
              System.currentTimeMillis()));
      Scheduler s = Scheduler.create(ds, t)
          .tableName(table())
          .threads(threads)
          .pollUsingLockAndFetch(1.0, 4.0)
          .pollingInterval(Duration.ofMillis(pollingIntervalMs))
          .enableImmediateExecution()
          .schedulerName(new SchedulerName.Fixed("tickwheel-bench"))
          .shutdownMaxWait(Duration.ofSeconds(5))
          .build();
      s.start();
      task = t;
      calls = new BlockingCalls(NAME + "-client", clientThreads, CLIENT_QUEUE);
      dataSource = ds;
      scheduler = s;
    } catch (Exception | Error e) {
      ds.close();
      throw e;
    }
  }

  @Override
  public CompletionStage<Void> schedule(String id, long dueAtMs) {
    String problem = PeerArgs.idProblem(id);
    if (problem != null) {
      return PeerArgs.failed(NAME, problem);
    }
    Scheduler s = scheduler;
    if (s == null) {
      return PeerArgs.notStarted(NAME);
    }
    OneTimeTask<Void> t = task;
    return calls.submit(() -> {
      if (!s.scheduleIfNotExists(t.instance(id), Instant.ofEpochMilli(dueAtMs))) {
        throw new IllegalStateException(NAME + ": a timer with id '" + id + "' is already pending");
      }
      return null;
    });
  }

  @Override
  public CompletionStage<Void> scheduleBatch(List<String> ids, long[] dueAtMs) {
    String problem = PeerArgs.batchProblem(ids, dueAtMs);
    if (problem != null) {
      return PeerArgs.failed(NAME, problem);
    }
    Scheduler s = scheduler;
    if (s == null) {
      return PeerArgs.notStarted(NAME);
    }
    OneTimeTask<Void> t = task;
    return calls.submit(() -> {
      List<SchedulableInstance<?>> batch = new ArrayList<>(ids.size());
      for (int i = 0; i < dueAtMs.length; i++) {
        batch.add(SchedulableInstance.of(t.instance(ids.get(i)), Instant.ofEpochMilli(dueAtMs[i])));
      }
      s.scheduleBatch(batch);
      return null;
    });
  }

  @Override
  public CompletionStage<Void> reschedule(String id, long newDueAtMs) {
    String problem = PeerArgs.idProblem(id);
    if (problem != null) {
      return PeerArgs.failed(NAME, problem);
    }
    Scheduler s = scheduler;
    if (s == null) {
      return PeerArgs.notStarted(NAME);
    }
    OneTimeTask<Void> t = task;
    return calls.submit(() -> {
      boolean updated;
      try {
        updated = s.reschedule(t.instanceId(id), Instant.ofEpochMilli(newDueAtMs));
      } catch (TaskInstanceNotFoundException | TaskInstanceCurrentlyExecutingException e) {
        throw new NoSuchElementException(NAME + ": no pending timer with id '" + id + "' (fired or firing)", e);
      }
      if (!updated) {
        throw new IllegalStateException(NAME + ": timer '" + id + "' changed while being rescheduled (firing?)");
      }
      return null;
    });
  }

  /** Deletes every execution of {@value #TASK_NAME} (pending or picked) from this target's table. */
  @Override
  public void reset() throws Exception {
    HikariDataSource ds = dataSource;
    if (ds != null) {
      deleteAll(ds);
    }
  }

  private void deleteAll(HikariDataSource ds) throws Exception {
    try (Connection c = ds.getConnection();
        PreparedStatement st = c.prepareStatement("DELETE FROM " + table() + " WHERE task_name = ?")) {
      st.setString(1, TASK_NAME);
      st.executeUpdate();
    }
  }

  @Override
  public void close() throws Exception {
    Scheduler s = scheduler;
    HikariDataSource ds = dataSource;
    scheduler = null;
    if (s == null) {
      return;
    }
    try {
      calls.close();
      s.stop();
      deleteAll(ds);
    } finally {
      dataSource = null;
      try {
        ds.close();
      } finally {
        analyzer.close();
      }
    }
  }
}
