package io.tickwheel.store.redis.impl;

import io.tickwheel.core.store.StoreFaultException;
import java.util.Set;

/**
 * A script of ours refused the call on purpose and changed nothing: the partition fence ({@code FENCED}, see
 * {@code fence.lua}) or a single-node store on a prefix a cluster uses ({@code CLUSTER}). The store turns it into the
 * domain outcome ({@code StoreFencedException}, {@code ClusterConfigException}). Never "may have applied".
 */
public final class ScriptRefusal extends StoreFaultException {
  private static final long serialVersionUID = 1L;

  /** The error codes our scripts refuse with. */
  static final Set<String> CODES = Set.of(Script.FENCED_CODE, "CLUSTER");

  private final String code;
  private final String reply;

  ScriptRefusal(String code, String reply, String message) {
    super(message, null, false);
    this.code = code;
    this.reply = reply;
  }

  /** {@code FENCED} or {@code CLUSTER}. */
  public String code() {
    return code;
  }

  /** The script's error reply without its code. */
  public String reply() {
    return reply;
  }
}
