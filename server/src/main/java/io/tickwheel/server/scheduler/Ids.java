package io.tickwheel.server.scheduler;

import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/** Server-generated timer ids: 128 random bits, base64url without padding (22 chars of {@code [A-Za-z0-9_-]}). */
public final class Ids {

  private static final Base64.Encoder ENC = Base64.getUrlEncoder().withoutPadding();

  private Ids() {}

  /** A fresh id; collisions are negligible (2^-64 after 2^32 ids), and the caller still checks for them. */
  public static String random() {
    byte[] b = new byte[16];
    ThreadLocalRandom.current().nextBytes(b);
    return ENC.encodeToString(b);
  }
}
