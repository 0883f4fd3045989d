package io.tickwheel.core.callback;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

/**
 * The key callbacks are signed with, in the Standard Webhooks text form {@code whsec_BASE64}: the prefix, then the
 * standard base64 (with padding, as the specification's libraries write it; unpadded is read too) of
 * {@value #MIN_BYTES}..{@value #MAX_BYTES} random bytes. {@link #toString()} never shows the key.
 *
 * <p>Immutable, thread safe.
 */
public final class WebhookSecret {

  /** The text form's prefix. */
  public static final String PREFIX = "whsec_";
  /** The fewest key bytes accepted (192 bits), as the specification's recommendation. */
  public static final int MIN_BYTES = 24;
  /** The most key bytes accepted. */
  public static final int MAX_BYTES = 64;
  /** Bytes of a generated key (256 bits). */
  public static final int GENERATED_BYTES = 32;

  private final String text;
  private final byte[] key;

  private WebhookSecret(String text, byte[] key) {
    this.text = text;
    this.key = key;
  }

  /**
   * Reads {@code whsec_BASE64}.
   *
   * @throws IllegalArgumentException saying what is wrong, without the key (e.g. "must start with whsec_", "decodes
   *                                  to 16 bytes, must be 24..64")
   */
  public static WebhookSecret parse(String text) {
    if (text == null || !text.startsWith(PREFIX)) {
      throw new IllegalArgumentException("must start with " + PREFIX + " followed by base64 of " + MIN_BYTES + ".."
          + MAX_BYTES + " bytes");
    }
    byte[] key;
    try {
      key = Base64.getDecoder().decode(text.substring(PREFIX.length()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("must be " + PREFIX + " followed by standard base64 (A-Z a-z 0-9 + /, "
          + "= padding), which the " + (text.length() - PREFIX.length()) + " characters after the prefix are not");
    }
    if (key.length < MIN_BYTES || key.length > MAX_BYTES) {
      throw new IllegalArgumentException("decodes to " + key.length + " bytes, must be " + MIN_BYTES + ".."
          + MAX_BYTES);
    }
    return new WebhookSecret(text, key);
  }

  /** A new key of {@value #GENERATED_BYTES} bytes from {@code random}. */
  public static WebhookSecret generate(SecureRandom random) {
    byte[] key = new byte[GENERATED_BYTES];
    random.nextBytes(key);
    return new WebhookSecret(PREFIX + Base64.getEncoder().encodeToString(key), key);
  }

  /** The text form, {@code whsec_BASE64}, as configured or generated. */
  public String text() {
    return text;
  }

  /** A copy of the key bytes. */
  public byte[] key() {
    return key.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WebhookSecret s && Arrays.equals(s.key, key);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(key);
  }

  @Override
  public String toString() {
    return "WebhookSecret[" + key.length + " bytes]";
  }
}
