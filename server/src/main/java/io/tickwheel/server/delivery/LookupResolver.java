package io.tickwheel.server.delivery;

import io.tickwheel.core.callback.AddressPolicy;
import io.tickwheel.core.callback.HostLiteral;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.InetAddress;

/**
 * A {@link TargetResolver} over the JDK resolver (run on a worker thread: it blocks) and an {@link AddressPolicy}:
 * an address literal is checked as it is; a name is resolved once and every address it resolves to must pass, the
 * first one is connected to. Thread safe.
 */
public final class LookupResolver implements TargetResolver {

  private final Vertx vertx;
  private final AddressPolicy policy;

  public LookupResolver(Vertx vertx, AddressPolicy policy) {
    this.vertx = vertx;
    this.policy = policy;
  }

  @Override
  public Future<InetAddress> resolve(String host) {
    byte[] literal;
    try {
      literal = HostLiteral.parse(host);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(new Blocked("host " + e.getMessage()));
    }
    if (literal != null) {
      String why = policy.blocked(literal);
      if (why != null) {
        return Future.failedFuture(new Blocked(why));
      }
      try {
        return Future.succeededFuture(InetAddress.getByAddress(literal));
      } catch (java.net.UnknownHostException e) {
        return Future.failedFuture(e);
      }
    }
    return vertx.executeBlocking(() -> {
      InetAddress[] all = InetAddress.getAllByName(host);
      for (InetAddress a : all) {
        String why = policy.blocked(a);
        if (why != null) {
          throw new Blocked(host + " resolves to " + a.getHostAddress() + ": " + why);
        }
      }
      return all[0];
    }, false);
  }
}
