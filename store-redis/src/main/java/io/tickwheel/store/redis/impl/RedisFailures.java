package io.tickwheel.store.redis.impl;

import io.tickwheel.core.store.StoreException;
import io.tickwheel.core.store.StoreFaultException;
import io.tickwheel.core.store.StoreUnavailableException;
import io.vertx.redis.client.impl.types.ErrorType;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what {@code vertx-redis-client} fails a call with into the store's exceptions, and says honestly whether
 * the call may have been applied.
 *
 * <h2>What the client fails a call with</h2>
 * <ul>
 *   <li>A Redis error reply: an {@link ErrorType} whose message starts with the error code ({@code LOADING …},
 *       {@code WRONGTYPE …}). Refusals that mean "not now" ({@link #unavailableCode}) are unavailable and were not
 *       applied; other codes are faults.</li>
 *   <li>The connection ended (the server closed it, e.g. on {@code SHUTDOWN} or a restart): every command waiting
 *       for its reply fails with the client's own {@link ErrorType} {@code CONNECTION_CLOSED}.</li>
 *   <li>The connection broke (reset by peer, a TLS or socket error): every waiting command fails with that
 *       exception ({@code java.net.SocketException: Connection reset}, a Netty {@code NativeIoException}, …).</li>
 *   <li>A batch (a transaction) fails as one {@link ErrorType} listing its failed commands, one line each:
 *       {@code ERR [index] CAUSE}, where CAUSE is the error reply without its {@code ERR } prefix, or
 *       {@code CONNECTION_CLOSED}, or the broken connection's exception as {@code class.Name: message}. So a
 *       connection reset during a transaction arrives as an "error reply" and is recognised by its lines.</li>
 *   <li>The client's refusals before anything was written: {@code Connection is closed}, {@code Redis waiting
 *       queue is full}, {@code Failed obtaining connection to: …} ({@link #NOT_SENT}).</li>
 * </ul>
 * Every I/O failure is a {@link StoreUnavailableException}: one that struck a command already written to the
 * connection may have been applied (Redis may have run it and lost only the reply); a refusal was not.
 *
 * <p>Stateless apart from the endpoint description; thread safe.
 */
final class RedisFailures {

  /** Redis error codes that mean "not reachable or not writable now, retry later": the command was refused. */
  private static final Set<String> UNAVAILABLE_CODES = Set.of("LOADING", "BUSY", "MASTERDOWN", "CLUSTERDOWN",
      "TRYAGAIN", "READONLY", "NOAUTH", "NOREPLICAS", "MISCONF", "NOPERM", "WRONGPASS", "MOVED", "ASK");

  /** The client's error for every command still waiting when the connection ended. */
  static final String CONNECTION_CLOSED = "CONNECTION_CLOSED";

  /** Messages of the client's refusals made before the command was written to any socket. */
  static final List<String> NOT_SENT = List.of("Connection is closed", "Redis waiting queue is full",
      "Failed obtaining connection to", "Redis command is not valid");

  /** One command's error in a failed batch's message: {@code [index] CODE}. */
  private static final Pattern BATCH_CODE = Pattern.compile("\\[\\d+\\]\\s*([A-Z]+)");

  /**
   * One command of a failed batch that failed with the connection, not with a reply: {@code [index]
   * CONNECTION_CLOSED}, or {@code [index] some.package.SomeException…}. A Redis error reply never starts with a
   * dotted Java class name.
   */
  private static final Pattern BATCH_CONNECTION_LOST = Pattern.compile(
      "\\[\\d+\\]\\s*(" + CONNECTION_CLOSED + "\\b|(?:[a-z_$][\\w$]*\\.)+[A-Z][\\w$]*(?::|$))",
      Pattern.MULTILINE);

  /** Error codes after which Redis ran nothing of the call: the transaction or script was never run. */
  private static final Set<String> NOT_RUN_CODES = Set.of("EXECABORT", "NOSCRIPT");

  private final String where;

  /** @param where the masked endpoint, for messages */
  RedisFailures(String where) {
    this.where = where;
  }

  /**
   * The store exception for a call that was handed to the connection and failed with {@code t}.
   *
   * @param what  the call, for the message ({@code createAll}, {@code put.lua}, …)
   * @param write whether the call may change data (for a read, {@code mayHaveApplied} is always false)
   */
  StoreException map(Throwable t, String what, boolean write) {
    if (t instanceof StoreException s) {
      return s;
    }
    if (t instanceof ErrorType e) {
      String msg = mask(String.valueOf(e.getMessage()));
      String lost = connectionLost(msg);
      if (lost != null) {
        return new StoreUnavailableException(where + " is unavailable for " + what
            + ": the connection was lost while the call was in flight (" + lost + ")", null, write);
      }
      int sp = msg.indexOf(' ');
      String code = sp > 0 ? msg.substring(0, sp) : msg;
      if (ScriptRefusal.CODES.contains(code)) {
        return new ScriptRefusal(code, sp > 0 ? msg.substring(sp + 1) : "", where + " refused " + what + ": " + msg);
      }
      if (unavailableCode(msg)) {
        return new StoreUnavailableException(where + " is unavailable for " + what + ": " + msg, null, false);
      }
      return new StoreFaultException(where + " failed " + what + ": " + msg, null, write && !notRun(msg));
    }
    boolean sent = !notSent(t);
    return new StoreUnavailableException(where + " is unavailable for " + what + ": " + describe(t), t,
        write && sent);
  }

  /**
   * Whether the error code of {@code msg} means "unreachable now". A failed batch (a transaction) reports its
   * commands' errors as lines {@code ERR [index] CODE message}: any of those codes counts.
   */
  static boolean unavailableCode(String msg) {
    int sp = msg.indexOf(' ');
    if (UNAVAILABLE_CODES.contains(sp > 0 ? msg.substring(0, sp) : msg)) {
      return true;
    }
    Matcher m = BATCH_CODE.matcher(msg);
    while (m.find()) {
      if (UNAVAILABLE_CODES.contains(m.group(1))) {
        return true;
      }
    }
    return false;
  }

  /**
   * When the {@link ErrorType} message {@code msg} reports a lost connection rather than a Redis reply: the cause
   * ({@code CONNECTION_CLOSED}, or the first broken-connection exception of a failed batch); else {@code null}.
   */
  static String connectionLost(String msg) {
    if (msg.equals(CONNECTION_CLOSED)) {
      return msg;
    }
    Matcher m = BATCH_CONNECTION_LOST.matcher(msg);
    if (!m.find()) {
      return null;
    }
    int eol = msg.indexOf('\n', m.start(1));
    return msg.substring(m.start(1), eol < 0 ? msg.length() : eol).strip();
  }

  /** Whether {@code t} is one of the client's refusals made before the command was written ({@link #NOT_SENT}). */
  static boolean notSent(Throwable t) {
    String m = t.getMessage();
    if (t instanceof ErrorType || m == null) {
      return false;
    }
    for (String s : NOT_SENT) {
      if (m.startsWith(s)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code msg} says Redis ran nothing of the call (a discarded transaction, a missing script). */
  private static boolean notRun(String msg) {
    int sp = msg.indexOf(' ');
    if (NOT_RUN_CODES.contains(sp > 0 ? msg.substring(0, sp) : msg)) {
      return true;
    }
    Matcher m = BATCH_CODE.matcher(msg);
    while (m.find()) {
      if (NOT_RUN_CODES.contains(m.group(1))) {
        return true;
      }
    }
    return false;
  }

  /** {@code t}'s class and message, with the user-info of any Redis URI in it masked. */
  static String describe(Throwable t) {
    String m = t.getMessage();
    return mask(t.getClass().getSimpleName() + (m == null ? "" : ": " + m));
  }

  /** {@code s} with the user-info of any Redis URI in it masked (the client may put the endpoint in messages). */
  static String mask(String s) {
    return s.replaceAll("(rediss?://)[^@\\s/]*@", "$1***@");
  }
}
