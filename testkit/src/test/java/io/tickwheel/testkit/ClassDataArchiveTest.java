package io.tickwheel.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class data archive against stand-in server jars compiled here: one that listens and exits 0 on SIGTERM (as the
 * server does), one that refuses to start.
 */
class ClassDataArchiveTest {

  private static final String LISTENS = """
      public class Listens {
        public static void main(String[] a) throws Exception {
          sun.misc.Signal.handle(new sun.misc.Signal("TERM"), s -> System.exit(0));
          System.out.println("tickwheel listening on http://127.0.0.1:4243");
          Thread.currentThread().join();
        }
      }
      """;

  private static final String REFUSES = """
      public class Refuses {
        public static void main(String[] a) {
          System.err.println("tickwheel: refusing to start");
          System.exit(2);
        }
      }
      """;

  @TempDir
  Path tmp;

  @AfterEach
  void unset() {
    System.clearProperty(ClassDataArchive.DIR_PROPERTY);
  }

  @Test
  void withoutTheDirectoryPropertyNoFlagIsAdded() throws IOException {
    assertThat(ClassDataArchive.flagsFor(jar("Listens", LISTENS))).isEmpty();
  }

  @Test
  void aJarThatStopsCleanlyGetsOneArchiveThatEveryLaunchUsesWithoutAWordInItsOutput() throws IOException {
    Path jar = jar("Listens", LISTENS);
    Path dir = tmp.resolve("cds");
    System.setProperty(ClassDataArchive.DIR_PROPERTY, dir.toString());
    List<String> flags = ClassDataArchive.flagsFor(jar);
    Path archive;
    try (var archives = Files.list(dir)) {
      List<Path> made = archives.toList();
      assertThat(made).hasSize(1);
      archive = made.get(0);
    }
    assertThat(archive.getFileName().toString()).startsWith("tickwheel-cds-").endsWith(".jsa");
    assertThat(Files.size(archive)).isPositive();
    assertThat(flags).contains("-XX:SharedArchiveFile=" + archive);
    var madeAt = Files.getLastModifiedTime(archive);
    assertThat(ClassDataArchive.flagsFor(jar)).isEqualTo(flags);
    assertThat(Files.getLastModifiedTime(archive)).as("made once").isEqualTo(madeAt);

    try (ServerProcess p = ServerProcess.fromJar(jar).jvmArgs("-Xlog:class+load=info").logs(tmp, "with-archive")
        .startAndAwaitListening(Duration.ofSeconds(60))) {
      p.sigterm();
      assertThat(p.waitForExit(Duration.ofSeconds(30))).isTrue();
      assertThat(p.exitValue()).isZero();
      assertThat(p.stdout()).as("the main class came from the archive")
          .containsPattern("Listens source: shared objects file \\(top\\)").doesNotContain("[warning]");
      assertThat(p.stderr()).isEmpty();
    }
  }

  @Test
  void aJarThatDoesNotStartGetsNoArchiveAndLaunchesWithoutOne() throws IOException {
    Path jar = jar("Refuses", REFUSES);
    Path dir = tmp.resolve("cds");
    System.setProperty(ClassDataArchive.DIR_PROPERTY, dir.toString());
    assertThat(ClassDataArchive.flagsFor(jar)).isEmpty();
    try (var left = Files.list(dir)) {
      assertThat(left).as("no partial archive left").isEmpty();
    }
    try (ServerProcess p = ServerProcess.fromJar(jar).logs(tmp, "refuses").start()) {
      assertThat(p.waitForExit(Duration.ofSeconds(60))).isTrue();
      assertThat(p.exitValue()).isEqualTo(2);
      assertThat(p.stderr().strip()).isEqualTo("tickwheel: refusing to start");
    }
  }

  /** Compiles {@code source} (class {@code name}) into a jar of its own whose main class it is. */
  private Path jar(String name, String source) throws IOException {
    Path dir = Files.createDirectories(tmp.resolve(name));
    Path src = Files.writeString(dir.resolve(name + ".java"), source);
    int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", dir.toString(), src.toString());
    assertThat(rc).as("javac of " + name).isZero();
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, name);
    Path jar = dir.resolve(name + ".jar");
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, m)) {
      j.putNextEntry(new JarEntry(name + ".class"));
      j.write(Files.readAllBytes(dir.resolve(name + ".class")));
      j.closeEntry();
    }
    return jar;
  }
}
