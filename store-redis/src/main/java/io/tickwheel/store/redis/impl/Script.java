package io.tickwheel.store.redis.impl;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * One of the store's Lua scripts (a resource next to this package's parent), with the SHA-1 Redis knows it by.
 * Immutable, thread safe.
 */
public enum Script {
  PUT("put.lua", true),
  UPDATE("update.lua", true),
  UPDATE_ALL("update_all.lua", true),
  REMOVE("remove.lua", true),
  FIRE("fire.lua", true),
  PAGE("page.lua", false),
  TRIM("trim.lua", true),
  UPDATE_DELIVERY("update_delivery.lua", true),
  PAGE_DELIVERIES("page_deliveries.lua", false),
  TRIM_DELIVERIES("trim_deliveries.lua", true),
  INIT("init.lua", true);

  /** All scripts, to load on every (re)connect. */
  public static final List<Script> ALL = List.of(values());

  private final String file;
  private final String body;
  private final String sha;
  private final boolean writes;

  Script(String file, boolean writes) {
    this.file = file;
    this.writes = writes;
    try (InputStream in = Script.class.getResourceAsStream("/io/tickwheel/store/redis/" + file)) {
      if (in == null) {
        throw new IllegalStateException("script resource " + file + " is missing from the jar");
      }
      this.body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read script " + file, e);
    }
    try {
      this.sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
          .digest(body.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The Lua source. */
  public String body() {
    return body;
  }

  /** The lowercase hex SHA-1 of the source, as {@code SCRIPT LOAD} returns it. */
  public String sha() {
    return sha;
  }

  /** Whether the script may change data ({@code false}: it only reads). */
  public boolean writes() {
    return writes;
  }

  /** The resource file name. */
  public String file() {
    return file;
  }
}
