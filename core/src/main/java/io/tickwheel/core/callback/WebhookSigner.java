package io.tickwheel.core.callback;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs callback requests as Standard Webhooks v1: the headers {@value #ID} (one per firing, the same on every
 * attempt), {@value #TIMESTAMP} (this attempt, Unix seconds) and {@value #SIGNATURE} = {@code v1,} + base64 of
 * HMAC-SHA256, keyed with the secret's decoded bytes, of {@code id + "." + timestamp + "." + body}.
 *
 * <p>Thread safe: each call uses its own {@link Mac} (a {@code Mac} is not thread safe; creating one costs about a
 * microsecond, far below an HTTP request).
 */
public final class WebhookSigner {

  /** The header naming the message; a receiver deduplicates on it. */
  public static final String ID = "webhook-id";
  /** The header with the attempt's time, Unix seconds. */
  public static final String TIMESTAMP = "webhook-timestamp";
  /** The header with the signature(s). */
  public static final String SIGNATURE = "webhook-signature";

  private static final String ALGORITHM = "HmacSHA256";

  private final SecretKeySpec key;

  public WebhookSigner(WebhookSecret secret) {
    this.key = new SecretKeySpec(secret.key(), ALGORITHM);
  }

  /**
   * The {@value #SIGNATURE} header value, {@code v1,BASE64}.
   *
   * @param id               the {@value #ID} header value
   * @param timestampSeconds the {@value #TIMESTAMP} header value, Unix seconds
   * @param body             the request body exactly as sent
   */
  public String sign(String id, long timestampSeconds, byte[] body) {
    Mac mac = mac();
    mac.update((id + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8));
    mac.update(body);
    return "v1," + Base64.getEncoder().encodeToString(mac.doFinal());
  }

  /** {@link #sign(String, long, byte[])} of the body's UTF-8 bytes. */
  public String sign(String id, long timestampSeconds, String body) {
    return sign(id, timestampSeconds, body.getBytes(StandardCharsets.UTF_8));
  }

  private Mac mac() {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return mac;
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }
}
