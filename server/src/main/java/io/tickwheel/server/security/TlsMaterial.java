package io.tickwheel.server.security;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Collection;
import java.util.Enumeration;

/**
 * A certificate chain and its private key, read from PEM files and checked: the certificate parses, is valid now
 * (neither expired nor not yet valid), and the key parses and belongs to it (a signature made with the key verifies
 * with the certificate's public key). Immutable.
 *
 * <p>{@link #load} reads files: blocking, never on an event loop.
 */
public final class TlsMaterial {

  /** Why a file does not hold what its flag needs; the message names the flag and the file, never key bytes. */
  public static final class Invalid extends Exception {
    private static final long serialVersionUID = 1L;
    /** The flag at fault: {@code --tls-cert}, {@code --tls-key} or {@code --tls-ca}. */
    public final String flag;
    /** What is wrong with the file, without the flag and file. */
    public final String problem;

    Invalid(String flag, Path file, String problem) {
      super(flag + " " + file + " " + problem, null, false, false);
      this.flag = flag;
      this.problem = problem;
    }
  }

  private final byte[] cert;
  private final byte[] key;
  private final X509Certificate leaf;

  private TlsMaterial(byte[] cert, byte[] key, X509Certificate leaf) {
    this.cert = cert;
    this.key = key;
    this.leaf = leaf;
  }

  /**
   * Reads and checks {@code certFile} and {@code keyFile} as of {@code now}.
   *
   * @throws Invalid naming the flag and the file: unreadable, not PEM, expired or not yet valid, key not the
   *     certificate's
   */
  public static TlsMaterial load(Path certFile, Path keyFile, Instant now) throws Invalid {
    return of(read("--tls-cert", certFile), certFile, read("--tls-key", keyFile), keyFile, now);
  }

  /** Checks contents already read (as {@link #load}); the paths only name them in messages. */
  public static TlsMaterial of(byte[] cert, Path certFile, byte[] key, Path keyFile, Instant now) throws Invalid {
    X509Certificate leaf = certificates("--tls-cert", certFile, cert)[0];
    try {
      leaf.checkValidity(java.util.Date.from(now));
    } catch (CertificateExpiredException e) {
      throw new Invalid("--tls-cert", certFile, "holds a certificate that expired at " + leaf.getNotAfter().toInstant());
    } catch (CertificateNotYetValidException e) {
      throw new Invalid("--tls-cert", certFile, "holds a certificate not valid before "
          + leaf.getNotBefore().toInstant());
    }
    PrivateKey pk;
    try {
      KeyStore ks = new PemKeyCertOptions().setCertValue(Buffer.buffer(cert)).setKeyValue(Buffer.buffer(key))
          .loadKeyStore(null);
      pk = privateKey(ks);
    } catch (Exception e) {
      throw new Invalid("--tls-key", keyFile, "is not a PEM private key (PKCS#8 or PKCS#1): " + oneLine(e));
    }
    if (pk == null) {
      throw new Invalid("--tls-key", keyFile, "holds no private key");
    }
    if (!matches(pk, leaf.getPublicKey())) {
      throw new Invalid("--tls-key", keyFile, "is not the key of the certificate in --tls-cert " + certFile
          + " (subject " + leaf.getSubjectX500Principal().getName() + ")");
    }
    return new TlsMaterial(cert.clone(), key.clone(), leaf);
  }

  /**
   * Reads and checks a CA file ({@code --tls-ca}): at least one PEM certificate.
   *
   * @throws Invalid naming {@code --tls-ca} and the file
   */
  public static PemTrustOptions trust(Path caFile) throws Invalid {
    byte[] bytes = read("--tls-ca", caFile);
    certificates("--tls-ca", caFile, bytes);
    return new PemTrustOptions().addCertValue(Buffer.buffer(bytes));
  }

  /** The key and chain as Vert.x server options take them. */
  public PemKeyCertOptions keyCertOptions() {
    return new PemKeyCertOptions().setCertValue(Buffer.buffer(cert)).setKeyValue(Buffer.buffer(key));
  }

  /** The server's own certificate (the first of the chain). */
  public X509Certificate certificate() {
    return leaf;
  }

  /** The certificate file's and the key file's bytes as read (copies). */
  java.util.List<byte[]> bytes() {
    return java.util.List.of(cert.clone(), key.clone());
  }

  /** One line describing the certificate (subject, expiry); no key material. */
  public String describe() {
    return "subject " + leaf.getSubjectX500Principal().getName() + ", valid until " + leaf.getNotAfter().toInstant();
  }

  static byte[] read(String flag, Path file) throws Invalid {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new Invalid(flag, file, "does not exist");
    } catch (IOException | SecurityException e) {
      throw new Invalid(flag, file, "cannot be read: " + oneLine(e));
    }
  }

  private static X509Certificate[] certificates(String flag, Path file, byte[] pem) throws Invalid {
    String text = new String(pem, java.nio.charset.StandardCharsets.US_ASCII);
    if (!text.contains("-----BEGIN CERTIFICATE-----")) {
      throw new Invalid(flag, file, "holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
    }
    Collection<? extends Certificate> all;
    try {
      all = CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem));
    } catch (CertificateException e) {
      throw new Invalid(flag, file, "is not a readable PEM certificate: " + oneLine(e));
    }
    if (all.isEmpty()) {
      throw new Invalid(flag, file, "holds no PEM certificate");
    }
    return all.stream().map(c -> (X509Certificate) c).toArray(X509Certificate[]::new);
  }

  private static PrivateKey privateKey(KeyStore ks) throws GeneralSecurityException {
    Enumeration<String> aliases = ks.aliases();
    while (aliases.hasMoreElements()) {
      String a = aliases.nextElement();
      if (ks.isKeyEntry(a)) {
        return (PrivateKey) ks.getKey(a, KEY_PASSWORD);
      }
    }
    return null;
  }

  /** The password Vert.x's PEM key store protects its entry with. */
  private static final char[] KEY_PASSWORD = "dummdummydummydummydummydummydummy".toCharArray();

  private static boolean matches(PrivateKey pk, PublicKey pub) {
    String alg = switch (pk.getAlgorithm()) {
      case "RSA" -> "SHA256withRSA";
      case "EC" -> "SHA256withECDSA";
      case "Ed25519", "EdDSA" -> "Ed25519";
      case "Ed448" -> "Ed448";
      default -> null;
    };
    if (alg == null) {
      return pub.getAlgorithm().equals(pk.getAlgorithm());
    }
    try {
      byte[] probe = new byte[32];
      new SecureRandom().nextBytes(probe);
      Signature s = Signature.getInstance(alg);
      s.initSign(pk);
      s.update(probe);
      byte[] sig = s.sign();
      Signature v = Signature.getInstance(alg);
      v.initVerify(pub);
      v.update(probe);
      return v.verify(sig);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  static String oneLine(Throwable t) {
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
