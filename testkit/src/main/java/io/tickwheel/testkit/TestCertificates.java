package io.tickwheel.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates made for a test with {@code openssl} (and the JDK's {@code keytool} for an expired one): a private CA,
 * and server certificates it signs for {@code localhost} and {@code 127.0.0.1}, each a PEM certificate file and a
 * PEM private key file (PKCS#8). Nothing is shared between instances; the files live under the directory given.
 *
 * <p>Blocking (runs processes); not thread safe.
 */
public final class TestCertificates {

  /** A certificate file and its key file (PEM). */
  public record Pair(Path cert, Path key) {}

  private final Path dir;
  private final Path caCert;
  private final Path caKey;
  private int serial;

  private TestCertificates(Path dir) {
    this.dir = dir;
    this.caCert = dir.resolve("ca.crt");
    this.caKey = dir.resolve("ca.key");
  }

  /** A new CA under {@code dir} (created if missing). */
  public static TestCertificates create(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    TestCertificates c = new TestCertificates(dir);
    run(dir, "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", c.caKey.toString(),
        "-out", c.caCert.toString(), "-days", "2", "-subj", "/CN=tickwheel test CA",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
    return c;
  }

  /** The CA's certificate (PEM): what clients trust. */
  public Path ca() {
    return caCert;
  }

  /**
   * A server certificate for {@code localhost} and {@code 127.0.0.1}, signed by the CA, valid for a day, with
   * {@code cn} as its subject's common name (tests tell renewed certificates apart by it).
   */
  public Pair issue(String cn) {
    String n = "server" + (++serial);
    Path key = dir.resolve(n + ".key");
    Path csr = dir.resolve(n + ".csr");
    Path cert = dir.resolve(n + ".crt");
    Path ext = dir.resolve(n + ".ext");
    write(ext, "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
    run(dir, "openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", key.toString(), "-out", csr.toString(),
        "-subj", "/CN=" + cn);
    run(dir, "openssl", "x509", "-req", "-in", csr.toString(), "-CA", caCert.toString(), "-CAkey", caKey.toString(),
        "-set_serial", String.valueOf(1000 + serial), "-days", "1", "-extfile", ext.toString(), "-out", cert.toString());
    return new Pair(cert, key);
  }

  /** A self-signed certificate for {@code localhost} that expired yesterday, and its key (made with keytool). */
  public Pair expired() {
    String n = "expired" + (++serial);
    Path p12 = dir.resolve(n + ".p12");
    Path cert = dir.resolve(n + ".crt");
    Path key = dir.resolve(n + ".key");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    run(dir, keytool, "-genkeypair", "-alias", "s", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=localhost",
        "-startdate", "-3d", "-validity", "1", "-storetype", "PKCS12", "-keystore", p12.toString(),
        "-storepass", "changeit", "-keypass", "changeit");
    run(dir, "openssl", "pkcs12", "-in", p12.toString(), "-passin", "pass:changeit", "-nokeys", "-out", cert.toString());
    run(dir, "openssl", "pkcs12", "-in", p12.toString(), "-passin", "pass:changeit", "-nocerts", "-nodes",
        "-out", key.toString());
    return new Pair(cert, key);
  }

  /**
   * Replaces {@code target}'s contents with {@code source}'s the way renewal tools do: written beside it, then
   * renamed over it (atomically), so a reader sees the old file or the new one, never a part.
   */
  public static void replace(Path source, Path target) {
    try {
      Path tmp = Files.createTempFile(target.toAbsolutePath().getParent(), ".renew", ".tmp");
      Files.copy(source, tmp, StandardCopyOption.REPLACE_EXISTING);
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(Path p, String text) {
    try {
      Files.writeString(p, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void run(Path dir, String... command) {
    List<String> cmd = new ArrayList<>(List.of(command));
    try {
      Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("timed out: " + String.join(" ", cmd));
      }
      if (p.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", cmd) + " exited " + p.exitValue() + ": "
            + new String(out, StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + cmd.get(0) + " (openssl and the JDK's keytool are needed)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
