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
  CREATE_ABSENT("create_absent.lua", true),
  /** Step 1 of a large unfenced createAbsent's transaction (sent as {@code EVAL}, see {@link RedisTimers}). */
  CREATE_ABSENT_KEEP("create_absent_keep.lua", true),
  /** Step 3 of a large unfenced createAbsent's transaction (sent as {@code EVAL}, see {@link RedisTimers}). */
  CREATE_ABSENT_INDEX("create_absent_index.lua", true),
  UPDATE("update.lua", true),
  UPDATE_ALL("update_all.lua", true),
  REMOVE("remove.lua", true),
  FIRE("fire.lua", true),
  PAGE("page.lua", false),
  TRIM("trim.lua", true),
  INIT("init.lua", true),
  /** {@link #PUT} behind the partition fence (see {@code fence.lua}): extra last KEY lease hash, last ARGV epoch. */
  PUT_FENCED("put.lua", true, true),
  CREATE_ABSENT_FENCED("create_absent.lua", true, true),
  UPDATE_FENCED("update.lua", true, true),
  UPDATE_ALL_FENCED("update_all.lua", true, true),
  REMOVE_FENCED("remove.lua", true, true),
  FIRE_FENCED("fire.lua", true, true),
  /**
   * The fenced writes of several partition stores in one call, each section behind its own fence (see
   * {@code write_multi.lua}): {@code counts.lua}, {@code fire_one.lua}, {@code lone.lua} and {@code lone_fire.lua}
   * (the sections applied without a section's frame: a create of one timer, a touch, a firing record of a few
   * requests) and {@code sections.lua} once, then every script {@link #multiName() that can be a section} wrapped as a
   * function in the table {@code write_one} under its section name, which starts with {@code tc_reset()} (so each
   * section keeps and applies its own counts, with the count functions defined once per call rather than once per
   * section), then the loop.
   */
  WRITE_MULTI("write_multi.lua", multiBody()),
  /**
   * The firing records of several partition stores in one call, each a lone one (a few requests), each behind its own
   * fence (see {@code fire_multi.lua}): {@link #WRITE_MULTI} for a call of such sections only, without its table of
   * section scripts nor the other lone sections. {@code counts.lua}, {@code fire_one.lua}, {@code lone_fire.lua} and
   * {@code sections.lua}, then the loop.
   */
  FIRE_MULTI("fire_multi.lua", resource("counts.lua") + resource("fire_one.lua") + resource("lone_fire.lua")
      + resource("sections.lua") + resource("fire_multi.lua")),
  TRIM_FENCED("trim.lua", true, true),
  JOIN("coordination/join.lua", true),
  LEASE_ACQUIRE("coordination/lease_acquire.lua", true),
  LEASE_RENEW("coordination/lease_renew.lua", true),
  /** {@link #LEASE_RENEW} for many leases of one holder in one call (standalone Redis only: the keys span slots). */
  LEASE_RENEW_ALL("coordination/lease_renew_all.lua", true),
  LEASE_RELEASE("coordination/lease_release.lua", true),
  /** Heartbeat (4 ARGV, writes); {@link #MEMBERS} is the same script called without ARGV. */
  HEARTBEAT("coordination/heartbeat.lua", true),
  /** The heartbeat script without ARGV: reads the live members only (so it never waits for replicas). */
  MEMBERS("coordination/heartbeat.lua", false),
  /** Leave: removes a member unless another instance of its node id is the member. */
  LEAVE("coordination/leave.lua", true),
  UPDATE_DELIVERY("update_delivery.lua", true),
  PAGE_DELIVERIES("page_deliveries.lua", false),
  TRIM_DELIVERIES("trim_deliveries.lua", true),
  UPDATE_DELIVERY_FENCED("update_delivery.lua", true, true),
  TRIM_DELIVERIES_FENCED("trim_deliveries.lua", true, true);

  /** All scripts, to load on every (re)connect. */
  public static final List<Script> ALL = List.of(values());

  /** The error code the fence prologue refuses a write with. */
  public static final String FENCED_CODE = "FENCED";

  private final String file;
  private final String body;
  private final String sha;
  private final boolean writes;

  Script(String file, boolean writes) {
    this(file, writes, false);
  }

  /** A writing script whose body is {@code body} (composed of resources), named after {@code file}. */
  Script(String file, String body) {
    this.file = file;
    this.writes = true;
    this.body = body;
    this.sha = sha1(body);
  }

  Script(String file, boolean writes, boolean fenced) {
    this.file = fenced ? "fenced " + file : file;
    this.writes = writes;
    String counts = counted(file) ? resource("counts.lua") : "";
    String own = prelude(file) + resource(file);
    this.body = fenced ? resource("fence.lua") + counts + own : counts + own;
    this.sha = sha1(body);
  }

  /** The scripts a {@link #WRITE_MULTI} call runs as sections, by their plain twins' files. */
  private static final class Multi {
    static final List<String> FILES = List.of("put.lua", "create_absent.lua", "update.lua", "update_all.lua",
        "remove.lua", "fire.lua");
  }

  private static String multiBody() {
    StringBuilder b = new StringBuilder(resource("counts.lua")).append(resource("fire_one.lua"))
        .append(resource("update_one.lua")).append(resource("create_group.lua")).append(resource("lone.lua"))
        .append(resource("lone_fire.lua")).append(resource("sections.lua")).append("local write_one = {}\n");
    for (String f : Multi.FILES) {
      b.append("write_one['").append(f, 0, f.length() - 4).append("'] = function(KEYS, ARGV)\ntc_reset()\n")
          .append(resource(f)).append("\nend\n");
    }
    return b.append(resource("write_multi.lua")).toString();
  }

  /**
   * This plain write script's name as a section of {@link #WRITE_MULTI} ({@code put}, {@code fire}, …), or
   * {@code null} when it cannot be one.
   */
  public String multiName() {
    return Multi.FILES.contains(file) ? file.substring(0, file.length() - 4) : null;
  }

  /** This plain write script's twin behind the partition fence ({@code fence.lua}), or {@code null}. */
  public Script fencedTwin() {
    return switch (this) {
      case PUT -> PUT_FENCED;
      case CREATE_ABSENT -> CREATE_ABSENT_FENCED;
      case UPDATE -> UPDATE_FENCED;
      case UPDATE_ALL -> UPDATE_ALL_FENCED;
      case REMOVE -> REMOVE_FENCED;
      case FIRE -> FIRE_FENCED;
      case TRIM -> TRIM_FENCED;
      case UPDATE_DELIVERY -> UPDATE_DELIVERY_FENCED;
      case TRIM_DELIVERIES -> TRIM_DELIVERIES_FENCED;
      default -> null;
    };
  }

  private static String sha1(String body) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
          .digest(body.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * What {@code file} runs after the counts and before its own text: {@code fire.lua} runs {@code fire_one.lua},
   * {@code update.lua} {@code update_one.lua}, {@code create_absent.lua} {@code create_group.lua}.
   */
  private static String prelude(String file) {
    return switch (file) {
      case "fire.lua" -> resource("fire_one.lua");
      case "update.lua" -> resource("update_one.lua");
      case "create_absent.lua" -> resource("create_group.lua");
      default -> "";
    };
  }

  /** Whether {@code file} writes timers, so keeps the per-topic counts with {@code counts.lua} prepended. */
  private static boolean counted(String file) {
    return java.util.Set.of("put.lua", "create_absent.lua", "create_absent_index.lua", "update.lua", "update_all.lua", "remove.lua", "fire.lua").contains(file);
  }

  private static String resource(String file) {
    try (InputStream in = Script.class.getResourceAsStream("/io/tickwheel/store/redis/" + file)) {
      if (in == null) {
        throw new IllegalStateException("script resource " + file + " is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read script " + file, e);
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
