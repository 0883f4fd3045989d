package io.tickwheel.server.dispatch;

import io.tickwheel.core.callback.AddressPolicy;
import io.tickwheel.core.callback.HostLiteral;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The SSRF guard's resolver: for each delivery attempt it resolves the callback host once, checks every address
 * against the {@link AddressPolicy}, and answers the one address the attempt must connect to (so a name that
 * resolves to a public address now and to a private one a moment later — DNS rebinding — cannot slip a private
 * address in between the check and the connection). A literal host (any form {@link HostLiteral} reads) is checked
 * without a lookup.
 *
 * <p>Rules: if any address of the name is blocked, the whole name is ({@code blocked_address}, naming the address);
 * otherwise the first address the resolver listed is the one to connect to. A lookup that fails, finds nothing or
 * takes longer than the timeout is {@link ResolvedTarget.Outcome#UNRESOLVED}. Nothing is cached here: every call
 * resolves again (the resolver below may cache within the DNS TTL; that cache holds what was checked).
 *
 * <p>Nothing blocks: the lookup is asynchronous ({@link #vertxLookup}: Vert.x's own resolver, with the hosts file
 * and the system's name servers, the one its HTTP client uses) and the answer completes on the caller's context.
 * Thread safe.
 */
public final class GuardedResolver {

  /** The longest a lookup may take by default, ms. */
  public static final long DEFAULT_TIMEOUT_MS = 5_000;

  /** Resolves a name to all its addresses, asynchronously; injectable so tests can play a rebinding DNS. */
  @FunctionalInterface
  public interface Lookup {
    /**
     * Every address of {@code host} (IPv4 and IPv6, the resolver's order); a failed future when it has none or the
     * lookup failed. Must not block the calling thread.
     */
    Future<List<InetAddress>> resolveAll(String host);
  }

  private final Vertx vertx;
  private final AddressPolicy policy;
  private final Lookup lookup;
  private final long timeoutMs;

  /**
   * @param vertx     for the lookup timeout's timer
   * @param policy    which addresses may be reached
   * @param lookup    the name resolver ({@link #vertxLookup} in production)
   * @param timeoutMs a lookup that takes longer is UNRESOLVED, ms, {@code >= 1}
   */
  public GuardedResolver(Vertx vertx, AddressPolicy policy, Lookup lookup, long timeoutMs) {
    this.vertx = Objects.requireNonNull(vertx, "vertx");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.lookup = Objects.requireNonNull(lookup, "lookup");
    if (timeoutMs < 1) {
      throw new IllegalArgumentException("timeoutMs must be >= 1, was " + timeoutMs);
    }
    this.timeoutMs = timeoutMs;
  }

  /** A resolver over {@link #vertxLookup} with {@link #DEFAULT_TIMEOUT_MS}. */
  public static GuardedResolver of(Vertx vertx, AddressPolicy policy) {
    return new GuardedResolver(vertx, policy, vertxLookup(vertx), DEFAULT_TIMEOUT_MS);
  }

  /**
   * Vert.x's address resolver (what its HTTP client resolves with: the hosts file, then DNS, asynchronously on
   * Netty's event loop; configured by the {@code VertxOptions}' {@code AddressResolverOptions}).
   */
  public static Lookup vertxLookup(Vertx vertx) {
    return host -> {
      Promise<List<InetAddress>> p = Promise.promise();
      ((VertxInternal) vertx).nameResolver().resolveAll(host, ar -> {
        if (ar.failed()) {
          p.tryFail(ar.cause());
        } else {
          List<InetAddress> out = new ArrayList<>(ar.result().size());
          for (InetSocketAddress a : ar.result()) {
            out.add(a.getAddress());
          }
          p.tryComplete(out);
        }
      });
      return p.future();
    };
  }

  /**
   * Resolves and checks {@code host} for one attempt. Completes on the caller's context (when called on one); never
   * fails: every problem is an outcome.
   *
   * @param host a callback URL's host as {@code CallbackUrl} gives it (IPv6 without brackets)
   */
  public Future<ResolvedTarget> resolve(String host) {
    byte[] literal;
    try {
      literal = HostLiteral.parse(host);
    } catch (IllegalArgumentException e) {
      return Future.succeededFuture(ResolvedTarget.unresolved(host + " " + e.getMessage()));
    }
    if (literal != null) {
      return Future.succeededFuture(check(host, List.of(address(literal)), true));
    }
    Context ctx = vertx.getOrCreateContext();
    Promise<ResolvedTarget> answer = Promise.promise();
    long timer = vertx.setTimer(timeoutMs, id -> answer.tryComplete(
        ResolvedTarget.unresolved(host + " did not resolve within " + timeoutMs + " ms")));
    Future<List<InetAddress>> looked;
    try {
      looked = lookup.resolveAll(host);
    } catch (RuntimeException e) {
      looked = Future.failedFuture(e);
    }
    looked.onComplete(ar -> {
      vertx.cancelTimer(timer);
      ResolvedTarget t = ar.failed()
          ? ResolvedTarget.unresolved(host + " did not resolve: " + ar.cause().getMessage())
          : check(host, ar.result(), false);
      answer.tryComplete(t);
    });
    Promise<ResolvedTarget> onCaller = Promise.promise();
    answer.future().onComplete(ar -> {
      if (Vertx.currentContext() == ctx) {
        onCaller.handle(ar);
      } else {
        ctx.runOnContext(v -> onCaller.handle(ar));
      }
    });
    return onCaller.future();
  }

  /** Every address must pass; the first is the one to connect to. */
  private ResolvedTarget check(String host, List<InetAddress> addresses, boolean literal) {
    if (addresses == null || addresses.isEmpty()) {
      return ResolvedTarget.unresolved(host + " has no address");
    }
    for (InetAddress a : addresses) {
      String why = policy.blocked(a.getAddress());
      if (why != null) {
        return ResolvedTarget.blocked(literal ? why : host + " resolves to an address it may not reach: " + why);
      }
    }
    return ResolvedTarget.connect(addresses.get(0));
  }

  private static InetAddress address(byte[] b) {
    try {
      return InetAddress.getByAddress(b);     // no lookup: an address of 4 or 16 bytes
    } catch (UnknownHostException e) {
      throw new IllegalStateException("HostLiteral gives 4 or 16 bytes", e);
    }
  }
}
