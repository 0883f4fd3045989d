package io.tickwheel.server.security;

import java.nio.file.Path;

/**
 * The TLS flags: {@code --tls-cert}, {@code --tls-key} (PEM, both or neither) and {@code --tls-ca} (PEM, the
 * certificates a node trusts when it calls another node at an {@code https://} address). Immutable. Whether the files
 * hold what they should is checked by {@link TlsMaterial#load}, not here. The CA also verifies a {@code rediss://}
 * Redis.
 *
 * @param cert the server's certificate chain (PEM), or {@code null} for plain HTTP
 * @param key  the certificate's private key (PEM, PKCS#8 or PKCS#1), or {@code null} for plain HTTP
 * @param ca   certificates to verify other nodes and a {@code rediss://} Redis against (PEM), or {@code null} for
 *             the JVM's trust store
 */
public record TlsOptions(Path cert, Path key, Path ca) {

  public TlsOptions {
    if ((cert == null) != (key == null)) {
      throw new IllegalArgumentException(cert == null ? "a key needs its certificate" : "a certificate needs its key");
    }
  }

  /** Plain HTTP, the JVM's trust store for other nodes. */
  public static TlsOptions none() {
    return new TlsOptions(null, null, null);
  }

  /** Whether the server listens with TLS. */
  public boolean enabled() {
    return cert != null;
  }

  /** The URL scheme the server answers on: {@code https} or {@code http}. */
  public String scheme() {
    return enabled() ? "https" : "http";
  }
}
