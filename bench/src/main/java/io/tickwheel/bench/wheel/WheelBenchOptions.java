package io.tickwheel.bench.wheel;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@link WheelBenchReport}'s command line, parsed with picocli: {@code --name value} or {@code --name=value}; an
 * option given twice: the last wins ({@code --prof} adds up). A bad option or value fails with an
 * {@link IllegalArgumentException} naming the option and the value. Read-only after {@link #parse}; not thread safe.
 */
@Command(name = "WheelBenchReport", sortOptions = false, usageHelpWidth = 110,
    customSynopsis = "Usage: java -Xmx2g -cp bench/target/benchmarks.jar io.tickwheel.bench.wheel.WheelBenchReport [options]",
    description = "Runs the wheel benchmarks of every peer with JMH and prints throughput, ratios and bytes per timer.")
final class WheelBenchOptions {

  private static final String OURS = "ours";

  @Option(names = "--workloads", paramLabel = "A,B|REGEX", defaultValue = "schedule,cancel,churn,expireDrain",
      description = "benchmark methods to run, a comma list or a regex (default ${DEFAULT-VALUE})")
  private String workloads;

  @Option(names = "--peers", paramLabel = "A,B", split = ",",
      description = "peers to run, a comma list (default all; ours always runs; a wrong name lists the known ones)")
  private List<String> peers;

  @Option(names = "--pending", paramLabel = "N,M", split = ",", defaultValue = "10000,1000000",
      description = "pending sizes (default ${DEFAULT-VALUE})")
  private List<String> pending;

  @Option(names = "--warmup", paramLabel = "N", defaultValue = "1",
      description = "JMH warm-up iterations, >= 0 (default ${DEFAULT-VALUE})")
  private int warmup;

  @Option(names = "--iterations", paramLabel = "N", defaultValue = "3",
      description = "JMH measured iterations, >= 1 (default ${DEFAULT-VALUE})")
  private int iterations;

  @Option(names = "--time", paramLabel = "MS", defaultValue = "800",
      description = "length of each iteration, ms, >= 1 (default ${DEFAULT-VALUE})")
  private int timeMs;

  @Option(names = "--prof", paramLabel = "NAME", description = "add a JMH profiler (e.g. gc, stack); repeatable")
  private List<String> profilers = new ArrayList<>();

  @Option(names = "--bytes-timers", paramLabel = "N", defaultValue = "1000000",
      description = "timers for the bytes-per-timer figure, 0 skips it (default ${DEFAULT-VALUE})")
  private int bytesTimers;

  @Option(names = "--log", paramLabel = "FILE",
      description = "JMH's own output; the JSON results go next to it (default wheel-bench-jmh.log in the temp dir)")
  private File log = new File(System.getProperty("java.io.tmpdir"), "wheel-bench-jmh.log");

  @Option(names = "--help", usageHelp = true, description = "print this help and exit")
  private boolean help;

  private WheelBenchOptions() {}

  /**
   * Parses and checks {@code args}.
   *
   * @throws IllegalArgumentException naming the option and the value
   */
  static WheelBenchOptions parse(String[] args) {
    WheelBenchOptions o = new WheelBenchOptions();
    try {
      commandLine(o).parseArgs(args);
    } catch (ParameterException e) {
      throw new IllegalArgumentException(e.getMessage() + " (see --help)", e);
    }
    atLeast("--warmup", o.warmup, 0);
    atLeast("--iterations", o.iterations, 1);
    atLeast("--time", o.timeMs, 1);
    atLeast("--bytes-timers", o.bytesTimers, 0);
    List<String> ps = new ArrayList<>(List.of(OURS));
    for (String p : o.peers == null ? Peers.NAMES : o.peers) {
      if (!Peers.NAMES.contains(p)) {
        throw new IllegalArgumentException("--peers: unknown peer '" + p + "', expected some of " + Peers.NAMES);
      }
      if (!ps.contains(p)) {
        ps.add(p);
      }
    }
    o.peers = List.copyOf(ps);
    for (String n : o.pending) {
      try {
        if (Integer.parseInt(n) >= 1) {
          continue;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException("--pending must list integers >= 1, was '" + n + "'");
    }
    return o;
  }

  /** The {@code --help} text. */
  static String usage() {
    return commandLine(new WheelBenchOptions()).getUsageMessage(CommandLine.Help.Ansi.OFF);
  }

  private static CommandLine commandLine(WheelBenchOptions o) {
    CommandLine cl = new CommandLine(o);
    cl.setExpandAtFiles(false);
    cl.setOverwrittenOptionsAllowed(true);
    return cl;
  }

  private static void atLeast(String option, int n, int min) {
    if (n < min) {
      throw new IllegalArgumentException(option + " must be an integer >= " + min + ", was '" + n + "'");
    }
  }

  boolean helpRequested() {
    return help;
  }

  /** The JMH method pattern: a comma list as alternatives, or the regex as given. */
  String workloads() {
    return workloads.replace(',', '|');
  }

  /** {@code ours} first, then the other peers asked for, each once. */
  List<String> peers() {
    return peers;
  }

  List<String> pending() {
    return List.copyOf(pending);
  }

  List<String> profilers() {
    return List.copyOf(profilers);
  }

  int warmup() {
    return warmup;
  }

  int iterations() {
    return iterations;
  }

  long timeMs() {
    return timeMs;
  }

  int bytesTimers() {
    return bytesTimers;
  }

  File log() {
    return log;
  }
}
