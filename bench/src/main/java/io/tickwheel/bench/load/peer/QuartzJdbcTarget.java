package io.tickwheel.bench.load.peer;

import io.tickwheel.bench.load.FiringSink;
import io.tickwheel.bench.load.TimerTarget;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;
import org.quartz.impl.StdSchedulerFactory;

/**
 * Quartz 2.5 in its durable mode: the JDBC job store ({@code JobStoreTX} with the {@code PostgreSQLDelegate}) on
 * the machine's PostgreSQL, configured the way Quartz's configuration reference recommends.
 *
 * <h2>How it is driven</h2>
 * <ul>
 *   <li>{@link #schedule}: {@code scheduleJob(job, trigger)} with a non-durable job and a one-shot
 *       {@code SimpleTrigger} starting at the due time; Quartz commits the rows before returning, so the stage
 *       completes once the timer is durable.</li>
 *   <li>{@link #scheduleBatch}: {@code scheduleJobs(map, false)}, one transaction for the whole batch (all or
 *       nothing; an existing id fails the batch).</li>
 *   <li>{@link #reschedule}: {@code rescheduleJob(triggerKey, newTrigger)}; fails with
 *       {@link NoSuchElementException} when the timer is no longer pending (already fired or never scheduled).</li>
 *   <li>A firing is reported from the job's {@code execute} on a Quartz worker thread as
 *       {@code sink.fired(id, trigger start time, now)}. The start time is the due time the client asked for; it is
 *       Quartz's {@code scheduledFireTime} except after a misfire, where Quartz moves the latter to the time the
 *       misfire was handled and would hide the lateness.</li>
 *   <li>The job store API is blocking: calls run on {@code clientThreads} threads ({@link BlockingCalls}, at most
 *       10,000 waiting). Quartz serialises inserts on its {@code TRIGGER_ACCESS} lock ({@code lockOnInsert}
 *       default), so more client threads than a few do not raise the schedule rate.</li>
 * </ul>
 *
 * <h2>How it is tuned (options, defaults)</h2>
 * <ul>
 *   <li>{@code jdbcUrl} ({@value PeerOptions#DEFAULT_JDBC_URL}), {@code jdbcUser} ({@code postgres}),
 *       {@code jdbcPassword} (empty); the host must be loopback.</li>
 *   <li>{@code schema} ({@code quartz_bench}): the tables ({@code qrtz_*}, from the DDL Quartz ships in its jar,
 *       {@code org/quartz/impl/jdbcjobstore/tables_postgres.sql}) live there; created when missing, never dropped.
 *       Table prefix {@code <schema>.qrtz_}. One process per schema: Quartz forbids two non-clustered schedulers on
 *       the same tables.</li>
 *   <li>{@code threads} (10): {@code org.quartz.threadPool.threadCount}, Quartz's default.</li>
 *   <li>{@code clientThreads} (4): threads making scheduling calls.</li>
 *   <li>Connection pool: Quartz's {@code hikaricp} provider, {@code maxConnections = threads + 3 + clientThreads}
 *       (the docs: at least the worker threads plus three, more when the application calls the scheduler API
 *       often).</li>
 *   <li>{@code batchMax} (= {@code threads}): {@code org.quartz.scheduler.batchTriggerAcquisitionMaxCount}, so the
 *       scheduler thread acquires up to that many due triggers per transaction instead of one (the docs' throughput
 *       setting; Quartz caps it at the free worker threads anyway), with {@code acquireTriggersWithinLock=true} as
 *       the docs require for a batch above 1. The fire-ahead window stays 0: a timer never fires before its
 *       due time.</li>
 *   <li>{@code misfireThresholdMs} (60000, Quartz's default): {@code org.quartz.jobStore.misfireThreshold}. Triggers
 *       later than that are misfires; their instruction is "fire now", so they still fire, once.</li>
 *   <li>Not clustered ({@code isClustered=false}): a single node, like the other peers here.</li>
 * </ul>
 *
 * <h2>Statistics</h2>
 * The machine's PostgreSQL runs with autovacuum off; a {@link PgAnalyzer} runs {@code ANALYZE} on this target's
 * tables every 5 s and before {@code clear()}, as autovacuum would, so foreign-key checks keep using indexes.
 *
 * <h2>Footprint</h2>
 * Nothing per timer is held in memory (rows in PostgreSQL only). {@link #reset} is {@code scheduler.clear()}: it
 * deletes this scheduler's jobs, triggers and fired-trigger rows in its schema. {@link #close} resets, shuts the
 * scheduler down (waiting for running jobs) and closes the pool. The tables stay.
 *
 * <p>Thread safety: {@code schedule}, {@code scheduleBatch} and {@code reschedule} may be called from any thread;
 * {@code start}, {@code reset} and {@code close} from one thread at a time.
 */
public final class QuartzJdbcTarget implements TimerTarget {

  /** The name the load tool knows this target by. */
  public static final String NAME = "quartz-jdbc";

  static final String GROUP = "tickwheel-bench";
  private static final String DDL_RESOURCE = "org/quartz/impl/jdbcjobstore/tables_postgres.sql";
  private static final int CLIENT_QUEUE = 10_000;

  private final String jdbcUrl;
  private final String user;
  private final String password;
  private final String schema;
  private final int threads;
  private final int clientThreads;
  private final int batchMax;
  private final int misfireThresholdMs;

  private volatile Scheduler scheduler;
  private volatile BlockingCalls calls;
  private volatile PgAnalyzer analyzer;

  /** @param options see the class comment; unknown keys are ignored */
  public QuartzJdbcTarget(Map<String, String> options) {
    PeerOptions o = new PeerOptions(options);
    this.jdbcUrl = o.postgresJdbcUrl();
    this.user = o.string("jdbcUser", "postgres");
    this.password = o.string("jdbcPassword", "");
    this.schema = o.sqlIdentifier("schema", "quartz_bench");
    this.threads = o.integer("threads", 10, 1, 200);
    this.clientThreads = o.integer("clientThreads", 4, 1, 200);
    this.batchMax = o.integer("batchMax", threads, 1, 10_000);
    this.misfireThresholdMs = o.integer("misfireThresholdMs", 60_000, 1, Integer.MAX_VALUE);
  }

  @Override
  public String name() {
    return NAME;
  }

  /** The Quartz properties this target starts its scheduler with (shown for the record in PEERS.md). */
  Properties quartzProperties() {
    Properties p = new Properties();
    p.setProperty("org.quartz.scheduler.instanceName", "tickwheel-bench-" + schema);
    p.setProperty("org.quartz.scheduler.instanceId", "NON_CLUSTERED");
    p.setProperty("org.quartz.scheduler.makeSchedulerThreadDaemon", "true");
    p.setProperty("org.quartz.scheduler.batchTriggerAcquisitionMaxCount", Integer.toString(batchMax));
    p.setProperty("org.quartz.scheduler.batchTriggerAcquisitionFireAheadTimeWindow", "0");
    p.setProperty("org.quartz.threadPool.class", "org.quartz.simpl.SimpleThreadPool");
    p.setProperty("org.quartz.threadPool.threadCount", Integer.toString(threads));
    p.setProperty("org.quartz.threadPool.makeThreadsDaemons", "true");
    p.setProperty("org.quartz.jobStore.class", "org.quartz.impl.jdbcjobstore.JobStoreTX");
    p.setProperty("org.quartz.jobStore.driverDelegateClass", "org.quartz.impl.jdbcjobstore.PostgreSQLDelegate");
    p.setProperty("org.quartz.jobStore.dataSource", "tickwheelBench");
    p.setProperty("org.quartz.jobStore.tablePrefix", schema + ".qrtz_");
    p.setProperty("org.quartz.jobStore.isClustered", "false");
    p.setProperty("org.quartz.jobStore.misfireThreshold", Integer.toString(misfireThresholdMs));
    p.setProperty("org.quartz.jobStore.acquireTriggersWithinLock", "true");
    p.setProperty("org.quartz.dataSource.tickwheelBench.provider", "hikaricp");
    p.setProperty("org.quartz.dataSource.tickwheelBench.driver", "org.postgresql.Driver");
    p.setProperty("org.quartz.dataSource.tickwheelBench.URL", jdbcUrl);
    p.setProperty("org.quartz.dataSource.tickwheelBench.user", user);
    p.setProperty("org.quartz.dataSource.tickwheelBench.password", password);
    p.setProperty("org.quartz.dataSource.tickwheelBench.maxConnections",
        Integer.toString(threads + 3 + clientThreads));
    return p;
  }

  @Override
  public void start(FiringSink sink) throws Exception {
    if (sink == null) {
      throw new IllegalArgumentException(NAME + ": sink must be non-null");
    }
    if (scheduler != null) {
      throw new IllegalStateException(NAME + ": already started");
    }
    try (Connection c = DriverManager.getConnection(jdbcUrl, user, password)) {
      PgSchema.ensure(c, schema, "qrtz_job_details", PgSchema.scriptFromClasspath(DDL_RESOURCE));
    }
    List<String> tables = List.of("qrtz_job_details", "qrtz_triggers", "qrtz_simple_triggers",
        "qrtz_fired_triggers").stream().map(t -> schema + "." + t).toList();
    analyzer = new PgAnalyzer(jdbcUrl, user, password, tables, NAME + "-analyze");
    Scheduler s = new StdSchedulerFactory(quartzProperties()).getScheduler();
    FiringJob job = new FiringJob(sink);
    s.setJobFactory((bundle, sched) -> job);
    s.start();
    calls = new BlockingCalls(NAME + "-client", clientThreads, CLIENT_QUEUE);
    scheduler = s;
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
    return calls.submit(() -> {
      s.scheduleJob(job(id), trigger(id, dueAtMs));
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
    return calls.submit(() -> {
      Map<JobDetail, Set<? extends Trigger>> batch = new LinkedHashMap<>(ids.size() * 2);
      for (int i = 0; i < dueAtMs.length; i++) {
        batch.put(job(ids.get(i)), Set.of(trigger(ids.get(i), dueAtMs[i])));
      }
      s.scheduleJobs(batch, false);
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
    return calls.submit(() -> {
      Date next = s.rescheduleJob(TriggerKey.triggerKey(id, GROUP), trigger(id, newDueAtMs));
      if (next == null) {
        throw new NoSuchElementException(NAME + ": no pending timer with id '" + id + "' (already fired?)");
      }
      return null;
    });
  }

  @Override
  public void reset() throws Exception {
    Scheduler s = scheduler;
    if (s != null) {
      analyzer.analyzeNow();
      s.clear();
    }
  }

  @Override
  public void close() throws Exception {
    Scheduler s = scheduler;
    scheduler = null;
    if (s == null) {
      return;
    }
    try {
      calls.close();
      analyzer.analyzeNow();
      s.clear();
    } finally {
      try {
        s.shutdown(true);
      } finally {
        analyzer.close();
      }
    }
  }

  private static JobDetail job(String id) {
    return JobBuilder.newJob(FiringJob.class).withIdentity(JobKey.jobKey(id, GROUP)).storeDurably(false).build();
  }

  private static Trigger trigger(String id, long dueAtMs) {
    return TriggerBuilder.newTrigger()
        .withIdentity(TriggerKey.triggerKey(id, GROUP))
        .forJob(JobKey.jobKey(id, GROUP))
        .startAt(new Date(dueAtMs))
        .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
        .build();
  }

  /**
   * The job every trigger runs: reports the firing to the sink. One instance serves all firings (the target's job
   * factory hands it out); it is stateless apart from the sink, so concurrent {@code execute} calls are safe.
   */
  public static final class FiringJob implements Job {
    private final FiringSink sink;

    FiringJob(FiringSink sink) {
      this.sink = sink;
    }

    @Override
    public void execute(JobExecutionContext context) {
      long now = System.currentTimeMillis();
      Trigger t = context.getTrigger();
      sink.fired(t.getJobKey().getName(), t.getStartTime().getTime(), now);
    }
  }
}
