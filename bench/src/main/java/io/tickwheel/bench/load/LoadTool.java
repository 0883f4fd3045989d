package io.tickwheel.bench.load;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code java -cp benchmarks.jar io.tickwheel.bench.load.LoadTool --url http://127.0.0.1:PORT | --server-jar JAR
 * [--target tickwheel,quartz-jdbc,db-scheduler,redisson-delayed-queue] [--store rocksdb,redis,memory]
 * [--scenario throughput,lateness,burst,heartbeat,recovery|all] [options]}: drives timer systems over their real
 * APIs, one target after the other (tickwheel once per store) with the same scenarios, sizes and concurrency;
 * prints the configuration, a table per scenario, one summary table (a column per target) and, when tickwheel ran
 * with at least one peer, the ratio table of {@link Comparison}. {@code --csv FILE} gets every value plus the ratio
 * rows, {@code --chart FILE.svg} the {@link SvgChart} of throughput and p99 lateness; {@code --help} prints every
 * option. Exit 0 when every scenario ran (the figures say whether targets were met) or after {@code --help}, 2 for
 * bad options, 1 when a scenario or target failed.
 */
public final class LoadTool {
  private LoadTool() {}

  public static void main(String[] args) throws Exception {
    LoadConfig cfg;
    try {
      LoadCli cli = LoadCli.parse(args);
      if (cli.helpRequested()) {
        System.out.print(LoadCli.usage());
        return;
      }
      cfg = cli.config();
    } catch (IllegalArgumentException e) {
      System.err.println("load: " + e.getMessage());
      System.exit(2);
      return;
    }
    System.out.println(cfg.describe());
    Results results = new Results();
    long t0 = System.nanoTime();
    int status = run(cfg, results);
    System.out.printf("%nall targets ran in %.0f s%n", (System.nanoTime() - t0) / 1e9);
    results.printSummary(System.out);
    Comparison comparison = new Comparison(results.rows());
    if (comparison.applicable()) {
      comparison.printMarkdown(System.out);
    }
    if (cfg.csv() != null) {
      results.writeCsv(Path.of(cfg.csv()), comparison.applicable() ? comparison.csvRows() : List.of());
      System.out.println("csv: " + cfg.csv());
    }
    if (cfg.chart() != null) {
      String subtitle = String.format(java.util.Locale.ROOT,
          "%s · %,d timers, %d in flight, batches of %,d · lateness: %,d pending, %,d firings/s for %d s · burst %,d",
          java.time.LocalDate.now(), cfg.timers(), cfg.concurrency(), cfg.batchSize(), cfg.pending(),
          cfg.firingRate(), cfg.windowMs() / 1000, cfg.burst());
      java.nio.file.Files.writeString(Path.of(cfg.chart()),
          SvgChart.render("tickwheel and its durable peers, same workload, one machine", subtitle,
              comparison.chartPanels()));
      System.out.println("chart: " + cfg.chart());
    }
    System.exit(status);
  }

  /**
   * One run of the scenarios: a target name and, for tickwheel, its store ("" with --url, or for a peer) and mode
   * ({@code http} or {@code client}; {@code http} for a peer).
   */
  record Run(String target, String store, String mode) {
    Run(String target, String store) {
      this(target, store, "http");
    }
  }

  /** The runs in order: each target of {@code --target}, tickwheel once per store and mode. */
  static List<Run> runs(LoadConfig cfg) {
    List<Run> runs = new java.util.ArrayList<>();
    for (String t : cfg.targets()) {
      if (!t.equals("tickwheel")) {
        runs.add(new Run(t, ""));
      } else if (cfg.url() != null) {
        for (String mode : cfg.tickwheelModes()) {
          runs.add(new Run(t, "", mode));
        }
      } else {
        for (String store : cfg.stores()) {
          for (String mode : cfg.tickwheelModes()) {
            runs.add(new Run(t, store, mode));
          }
        }
      }
    }
    return runs;
  }

  /** Runs every scenario against every target the configuration names; returns 0, or 1 if one failed. */
  public static int run(LoadConfig cfg, Results results) {
    int status = 0;
    for (Run run : runs(cfg)) {
      String store = run.store();
      Map<String, String> opts = new HashMap<>();
      if (cfg.url() != null) {
        opts.put("url", cfg.url());
      }
      if (cfg.serverJar() != null) {
        opts.put("server-jar", cfg.serverJar());
      }
      if (cfg.token() != null) {
        opts.put("token", cfg.token());
      }
      opts.put("store", store);
      opts.put("concurrency", String.valueOf(cfg.concurrency()));
      opts.put("clientLoops", String.valueOf(cfg.clientLoops()));
      opts.put("tickwheelMode", run.mode());
      opts.put("keepTimers", String.valueOf(cfg.keepTimers()));
      if (!cfg.endpoints().isEmpty()) {
        opts.put("endpoints", String.join(",", cfg.endpoints()));
      }
      if (cfg.redis() != null) {
        opts.put("redis", cfg.redis());
      }
      if (cfg.jdbcUrl() != null) {
        opts.put("jdbcUrl", cfg.jdbcUrl());
      }
      String shown = run.target() + ("client".equals(run.mode()) ? "-client" : "")
          + (store.isEmpty() ? "" : "-" + store);
      System.out.println();
      System.out.println("### target " + shown + " (" + java.time.LocalTime.now().withNano(0) + ")");
      try (TimerTarget target = Targets.create(run.target(), opts)) {
        Scenarios scenarios = new Scenarios(target, cfg, results);
        target.start(scenarios.sink());
        if (target instanceof TickwheelTarget tw) {
          System.out.println("http client: " + cfg.concurrency() + " connections over " + tw.clientLoops()
              + " event loop(s), " + tw.clientTransport());
        }
        if (target instanceof TickwheelTarget tw && tw.server() != null) {
          System.out.println("started " + target.name() + " at " + tw.server().url() + " (pid " + tw.server().pid()
              + ", listening after " + tw.server().listeningNanos() / 1_000_000 + " ms)");
        }
        Map<String, Integer> seen = new HashMap<>();
        for (String sc : cfg.scenarios()) {
          int repeat = seen.merge(sc, 1, Integer::sum);
          String label = repeat > 1 ? sc + "#" + repeat : sc;
          long t0 = System.nanoTime();
          try {
            scenarios.run(sc, repeat);
          } catch (Exception e) {
            status = 1;
            results.add(target.name(), label, "FAILED", e.toString().replace(',', ';'));
            System.err.println(sc + " on " + target.name() + " failed: " + e);
            e.printStackTrace();
            try {
              target.reset();
            } catch (Exception again) {
              System.err.println("reset after failure failed: " + again);
            }
          }
          results.add(target.name(), label, "scenario s", String.format("%.1f", (System.nanoTime() - t0) / 1e9));
          results.printScenario(System.out, target.name(), label);
        }
      } catch (Exception e) {
        status = 1;
        System.err.println("target " + shown + " failed: " + e);
        e.printStackTrace();
        results.add(shown, "target", "FAILED", e.toString().replace(',', ';'));
      }
    }
    return status;
  }
}
