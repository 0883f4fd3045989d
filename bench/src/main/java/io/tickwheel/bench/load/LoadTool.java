package io.tickwheel.bench.load;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code java -cp benchmarks.jar io.tickwheel.bench.load.LoadTool --url http://127.0.0.1:PORT | --server-jar JAR
 * [--store rocksdb,memory] [--scenario throughput,lateness,burst,heartbeat,recovery|all] [options]}: drives a
 * timer system over its real API, prints the configuration, a table per scenario and one summary table (and CSV
 * with {@code --csv}). Exit 0 when every scenario ran (the figures say whether targets were met), 2 for bad options,
 * 1 when a scenario failed.
 */
public final class LoadTool {
  private LoadTool() {}

  public static void main(String[] args) throws Exception {
    LoadConfig cfg;
    try {
      cfg = LoadConfig.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("load: " + e.getMessage());
      System.exit(2);
      return;
    }
    System.out.println(cfg.describe());
    Results results = new Results();
    int status = run(cfg, results);
    results.printSummary(System.out);
    if (cfg.csv() != null) {
      results.writeCsv(Path.of(cfg.csv()));
      System.out.println("csv: " + cfg.csv());
    }
    System.exit(status);
  }

  /** Runs every scenario against every target the configuration names; returns 0, or 1 if one failed. */
  public static int run(LoadConfig cfg, Results results) {
    int status = 0;
    List<String> stores = cfg.url() != null ? List.of("") : cfg.stores();
    for (String store : stores) {
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
      try (TimerTarget target = Targets.create(cfg.target(), opts)) {
        Scenarios scenarios = new Scenarios(target, cfg, results);
        target.start(scenarios.sink());
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
        System.err.println("target " + cfg.target() + " " + store + " failed: " + e);
        e.printStackTrace();
      }
    }
    return status;
  }
}
