package io.tickwheel.store.redis.impl;

import io.vertx.core.Future;
import io.tickwheel.core.store.StoreSettings;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The settings part of a Redis store: the set {@code paused-topics} ({@code SADD}/{@code SREM}/{@code SMEMBERS}) and
 * the string {@code webhook-secret} ({@code SET NX} then {@code GET}, one transaction), under the cluster's prefix on
 * a partition store (they are the cluster's). Thread safe; every call completes on the caller's context.
 */
public final class RedisSettings implements StoreSettings {

  private final RedisSender send;
  private final RedisKeys keys;

  public RedisSettings(RedisSender send, RedisKeys keys) {
    this.send = send;
    this.keys = keys;
  }

  @Override
  public Future<Void> setTopicPaused(String topic, boolean paused) {
    Objects.requireNonNull(topic, "topic");
    Future<Void> refused = send.refuseWrite();
    if (refused != null) {
      return refused;
    }
    return send.linkWrite(Request.cmd(paused ? Command.SADD : Command.SREM).arg(keys.pausedTopicsKey).arg(topic), r -> null);
  }

  @Override
  public Future<Set<String>> pausedTopics() {
    return send.read(Request.cmd(Command.SMEMBERS).arg(keys.pausedTopicsKey), r -> {
      Set<String> out = new HashSet<>();
      if (r != null) {
        for (Response m : r) {
          out.add(m.toString());
        }
      }
      return out;
    });
  }

  @Override
  public Future<String> webhookSecret(String generatedIfAbsent) {
    Objects.requireNonNull(generatedIfAbsent, "generatedIfAbsent");
    return send.linkTransaction(List.of(
            Request.cmd(Command.SET).arg(keys.webhookSecretKey).arg(generatedIfAbsent).arg("NX"),
            Request.cmd(Command.GET).arg(keys.webhookSecretKey)),
        "webhookSecret", r -> r.get(1).toString());
  }
}
