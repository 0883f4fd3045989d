package io.tickwheel.server.http;

import io.tickwheel.core.callback.WebhookSecret;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.function.Supplier;

/**
 * {@code GET /v1/webhook-secret}: {@code {"secret":"whsec_…"}}, the key callbacks are signed with (configured, or
 * generated at first start and kept in the store), so receivers can verify signatures. Behind the token like every
 * {@code /v1} route; answered with {@code Cache-Control: no-store}. Thread safe.
 */
public final class WebhookSecretApi {

  private final Supplier<WebhookSecret> secret;

  /** @param secret the server's secret (known once the server started) */
  public WebhookSecretApi(Supplier<WebhookSecret> secret) {
    this.secret = secret;
  }

  public void get(RoutingContext rc) {
    rc.response().putHeader("Cache-Control", "no-store");
    Replies.json(rc, 200, new JsonObject().put("secret", secret.get().text()).toBuffer());
  }
}
