package io.tickwheel.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A dynamic class data sharing (AppCDS) archive of a server jar, so that the many server JVMs a test run launches
 * map the classes a start loads instead of reading and verifying them again. Only the JVM's class loading changes: the same jar runs, with the same flags and
 * arguments.
 *
 * <p>On: when the system property {@value #DIR_PROPERTY} names a directory (the server module's failsafe
 * configuration sets it to {@code target/}). The archive of a jar is made once, by a start of its own (the jar with
 * {@code --store memory --port 0}, stopped with SIGTERM once it listens: the JVM writes the archive as it exits) and
 * named after the jar's size and modification time, so a rebuilt jar gets a new one. Anything failing on the way
 * (no directory, a start that does not listen or exit 0 within a minute, no archive written) leaves launches as they
 * were, without an archive; so does an archive the JVM refuses (its warning is turned off with the rest of its
 * {@code cds} logging, which would otherwise land in the server's output that tests read).
 *
 * <p>Thread safe: one archive per jar per test JVM, made under a lock by the first launch that needs it.
 */
final class ClassDataArchive {

  /** The system property naming the directory to keep archives in; unset, no archive is used. */
  static final String DIR_PROPERTY = "tickwheel.cds.dir";

  private static final long DUMP_TIMEOUT_MS = 60_000;
  private static final Map<Path, Optional<Path>> ARCHIVES = new HashMap<>();

  private ClassDataArchive() {}

  /** The JVM flags that use {@code jar}'s archive, making it first if needed; empty when off or unavailable. */
  static List<String> flagsFor(Path jar) {
    String dir = System.getProperty(DIR_PROPERTY);
    if (dir == null || dir.isBlank()) {
      return List.of();
    }
    Optional<Path> archive;
    synchronized (ARCHIVES) {
      archive = ARCHIVES.computeIfAbsent(jar.toAbsolutePath(), j -> make(j, Path.of(dir)));
    }
    return archive.map(a -> List.of("-XX:SharedArchiveFile=" + a, "-Xlog:cds=off,cds+dynamic=off"))
        .orElse(List.of());
  }

  private static Optional<Path> make(Path jar, Path dir) {
    try {
      Path archive = dir.resolve("tickwheel-cds-" + Files.size(jar) + "-" + Files.getLastModifiedTime(jar).toMillis()
          + ".jsa");
      if (Files.isRegularFile(archive) && Files.size(archive) > 0) {
        return Optional.of(archive);
      }
      Files.createDirectories(dir);
      Path partial = Files.createTempFile(dir, "tickwheel-cds-", ".jsa.partial");
      Files.delete(partial);      // the JVM writes it afresh
      if (dump(jar, partial) && Files.isRegularFile(partial) && Files.size(partial) > 0) {
        Files.move(partial, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return Optional.of(archive);
      }
      Files.deleteIfExists(partial);
      System.err.println("testkit: no class data archive of " + jar + ", server JVMs start without one");
      return Optional.empty();
    } catch (IOException e) {
      System.err.println("testkit: no class data archive of " + jar + " (" + e + "), server JVMs start without one");
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** Starts the jar writing {@code to} at exit, waits until it listens, SIGTERMs it; true if it exited 0. */
  private static boolean dump(Path jar, Path to) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:ArchiveClassesAtExit=" + to, "-Xlog:cds=off,cds+dynamic=off", "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1", "-jar", jar.toAbsolutePath().toString(),
        "--store", "memory", "--port", "0", "--host", "127.0.0.1"));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().keySet().removeIf(k -> k.startsWith("TICKWHEEL_"));
    Process p = pb.start();
    try {
      Thread reader = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
          String line;
          boolean signalled = false;
          while ((line = r.readLine()) != null) {
            if (!signalled && ServerProcess.LISTENING.matcher(line).matches()) {
              p.toHandle().destroy();       // SIGTERM: a clean exit, which writes the archive
              signalled = true;
            }
          }
        } catch (IOException ignored) {
          // the process ended
        }
      }, "cds-dump-" + p.pid());
      reader.setDaemon(true);
      reader.start();
      return p.waitFor(DUMP_TIMEOUT_MS, TimeUnit.MILLISECONDS) && p.exitValue() == 0;
    } finally {
      if (p.isAlive()) {
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
      }
    }
  }
}
