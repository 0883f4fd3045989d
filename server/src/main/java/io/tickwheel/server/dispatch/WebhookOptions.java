package io.tickwheel.server.dispatch;

import io.tickwheel.core.callback.AddressPolicy;
import io.tickwheel.core.callback.Cidr;
import io.tickwheel.core.callback.WebhookSecret;
import io.tickwheel.server.ConfigException;
import java.util.List;

/**
 * The server's callback settings ({@code --webhook-secret}, {@code --webhook-allow-private},
 * {@code --webhook-allow-cidr}). Immutable; {@link #toString()} never shows the secret.
 *
 * @param secret       the configured secret, or {@code null} to use the one kept in the store (generated at first
 *                     start)
 * @param allowPrivate callbacks may reach every address, private and local ones included
 * @param allowCidrs   address blocks callbacks may reach although the {@link AddressPolicy} blocks them
 */
public record WebhookOptions(WebhookSecret secret, boolean allowPrivate, List<Cidr> allowCidrs) {

  /** No secret configured, nothing private allowed. */
  public static final WebhookOptions DEFAULTS = new WebhookOptions(null, false, List.of());

  public WebhookOptions {
    if (allowCidrs == null) {
      throw ConfigException.field("webhookAllowCidr", "must not be null");
    }
    allowCidrs = List.copyOf(allowCidrs);
  }

  /**
   * Reads the text forms, as the command line gives them.
   *
   * @param secret       {@code whsec_…}, or {@code null} / empty for none
   * @param allowPrivate as the record
   * @param cidrs        address blocks, each {@code ADDRESS[/BITS]}; blank entries are skipped
   * @throws ConfigException naming {@code webhookSecret} (without the key) or {@code webhookAllowCidr} and the bad block
   */
  public static WebhookOptions parse(String secret, boolean allowPrivate, List<String> cidrs) {
    WebhookSecret s = null;
    if (secret != null && !secret.isEmpty()) {
      try {
        s = WebhookSecret.parse(secret.trim());
      } catch (IllegalArgumentException e) {
        throw ConfigException.field("webhookSecret", e.getMessage());
      }
    }
    List<Cidr> blocks = new java.util.ArrayList<>();
    for (String c : cidrs == null ? List.<String>of() : cidrs) {
      if (c == null || c.isBlank()) {
        continue;
      }
      try {
        blocks.add(Cidr.parse(c));
      } catch (IllegalArgumentException e) {
        throw ConfigException.field("webhookAllowCidr", e.getMessage());
      }
    }
    return new WebhookOptions(s, allowPrivate, blocks);
  }

  /** The address rule these settings make. */
  public AddressPolicy policy() {
    return new AddressPolicy(allowPrivate, allowCidrs);
  }

  /** This with another secret ({@code null} for the store's). */
  public WebhookOptions withSecret(WebhookSecret s) {
    return new WebhookOptions(s, allowPrivate, allowCidrs);
  }

  @Override
  public String toString() {
    return "WebhookOptions[secret=" + (secret == null ? "from store" : "set") + ", allowPrivate=" + allowPrivate
        + ", allowCidrs=" + allowCidrs + "]";
  }
}
