package io.tickwheel.server.security;

import java.util.Locale;

/**
 * What a token may do, each role including the ones before it:
 * <ul>
 *   <li>{@link #READ}: every {@code GET} under {@code /v1} (the event and wheel streams included), WebSocket
 *       {@code subscribe}, {@code unsubscribe} and {@code ping};</li>
 *   <li>{@link #WRITE}: also every timer, topic and delivery action, over HTTP and as WebSocket commands;</li>
 *   <li>{@link #ADMIN}: everything, also the webhook secret, export and import and the calls between nodes.</li>
 * </ul>
 */
public enum Role {
  READ, WRITE, ADMIN;

  /** Whether this role may do what {@code needed} may. */
  public boolean allows(Role needed) {
    return ordinal() >= needed.ordinal();
  }

  /** The role's name in a tokens file and in answers: {@code read}, {@code write}, {@code admin}. */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The role named {@code wire}, or {@code null}. */
  public static Role of(String wire) {
    for (Role r : values()) {
      if (r.wire().equals(wire)) {
        return r;
      }
    }
    return null;
  }
}
