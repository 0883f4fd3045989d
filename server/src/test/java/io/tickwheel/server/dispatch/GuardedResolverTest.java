package io.tickwheel.server.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.callback.AddressPolicy;
import io.tickwheel.core.callback.Cidr;
import io.tickwheel.server.dispatch.ResolvedTarget.Outcome;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(BlockedThreadGuard.class)
class GuardedResolverTest {

  static Vertx vertx;

  @BeforeAll
  static void startVertx() {
    vertx = TestVertx.create();
  }

  @AfterAll
  static void stopVertx() {
    TestVertx.close(vertx);
  }

  private static InetAddress ip(String literal) {
    try {
      return InetAddress.getByAddress(io.tickwheel.core.callback.HostLiteral.parse(literal));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** A DNS that answers each lookup of a name with the next of its answers (the last one again at the end). */
  static final class ScriptedDns implements GuardedResolver.Lookup {
    final List<List<InetAddress>> answers;
    final AtomicInteger lookups = new AtomicInteger();

    ScriptedDns(List<List<InetAddress>> answers) {
      this.answers = answers;
    }

    @Override
    public Future<List<InetAddress>> resolveAll(String host) {
      int n = lookups.getAndIncrement();
      return Future.succeededFuture(answers.get(Math.min(n, answers.size() - 1)));
    }
  }

  private static ResolvedTarget resolve(GuardedResolver r, String host) {
    return TestVertx.await(r.resolve(host));
  }

  @Test
  void aRebindingNameIsCheckedAtEveryAttemptAndTheCheckedAddressIsTheOneToConnectTo() {
    ScriptedDns dns = new ScriptedDns(List.of(List.of(ip("93.184.215.14")), List.of(ip("127.0.0.1"))));
    GuardedResolver r = new GuardedResolver(vertx, AddressPolicy.STRICT, dns, 1000);
    ResolvedTarget first = resolve(r, "rebind.example");
    assertThat(first.outcome()).isEqualTo(Outcome.CONNECT);
    assertThat(first.address().getHostAddress()).isEqualTo("93.184.215.14");
    ResolvedTarget second = resolve(r, "rebind.example");
    assertThat(second.outcome()).isEqualTo(Outcome.BLOCKED_ADDRESS);
    assertThat(second.error()).isEqualTo("blocked_address");
    assertThat(second.address()).isNull();
    assertThat(second.detail()).contains("rebind.example").contains("127.0.0.1 is a loopback address");
    assertThat(dns.lookups).as("one lookup per attempt, nothing cached").hasValue(2);
  }

  @Test
  void oneBlockedAddressAmongPublicOnesBlocksTheName() {
    GuardedResolver r = new GuardedResolver(vertx, AddressPolicy.STRICT,
        new ScriptedDns(List.of(List.of(ip("93.184.215.14"), ip("::ffff:10.0.0.5"), ip("2606:4700::1")))), 1000);
    ResolvedTarget t = resolve(r, "mixed.example");
    assertThat(t.outcome()).isEqualTo(Outcome.BLOCKED_ADDRESS);
    assertThat(t.detail()).contains("10.0.0.5");
  }

  @Test
  void thePolicysAllowancesApplyToResolvedAddresses() {
    ScriptedDns dns = new ScriptedDns(List.of(List.of(ip("10.1.2.3"))));
    assertThat(resolve(new GuardedResolver(vertx, new AddressPolicy(false, List.of(Cidr.parse("10.1.0.0/16"))), dns,
        1000), "internal.example").address().getHostAddress()).isEqualTo("10.1.2.3");
    assertThat(resolve(new GuardedResolver(vertx, new AddressPolicy(true, List.of()), dns, 1000), "internal.example")
        .outcome()).isEqualTo(Outcome.CONNECT);
    assertThat(resolve(new GuardedResolver(vertx, AddressPolicy.STRICT, dns, 1000), "internal.example").outcome())
        .isEqualTo(Outcome.BLOCKED_ADDRESS);
  }

  @Test
  void literalHostsInEveryFormAreCheckedWithoutALookup() {
    ScriptedDns dns = new ScriptedDns(List.of(List.of(ip("93.184.215.14"))));
    GuardedResolver r = new GuardedResolver(vertx, AddressPolicy.STRICT, dns, 1000);
    for (String h : List.of("2130706433", "0x7f.1", "0177.0.0.1", "::ffff:127.0.0.1", "64:ff9b::7f00:1", "::1")) {
      ResolvedTarget t = resolve(r, h);
      assertThat(t.outcome()).as(h).isEqualTo(Outcome.BLOCKED_ADDRESS);
    }
    ResolvedTarget pub = resolve(r, "0x5db8d70e");
    assertThat(pub.address().getHostAddress()).isEqualTo("93.184.215.14");
    GuardedResolver open = new GuardedResolver(vertx, new AddressPolicy(true, List.of()), dns, 1000);
    assertThat(resolve(open, "127.1").address().getHostAddress()).isEqualTo("127.0.0.1");
    assertThat(resolve(open, "::ffff:127.0.0.1").address().getHostAddress()).as("mapped: connect over IPv4")
        .isEqualTo("127.0.0.1");
    assertThat(dns.lookups).hasValue(0);
    assertThat(resolve(r, "1.2.3.256").outcome()).isEqualTo(Outcome.UNRESOLVED);
  }

  @Test
  void aFailedEmptyOrSlowLookupIsUnresolved() {
    GuardedResolver failing = new GuardedResolver(vertx, AddressPolicy.STRICT,
        h -> Future.failedFuture(new java.net.UnknownHostException(h)), 1000);
    ResolvedTarget f = resolve(failing, "nx.example");
    assertThat(f.outcome()).isEqualTo(Outcome.UNRESOLVED);
    assertThat(f.error()).isEqualTo("dns_error");
    assertThat(resolve(new GuardedResolver(vertx, AddressPolicy.STRICT, h -> Future.succeededFuture(List.of()), 1000),
        "empty.example").detail()).contains("has no address");
    List<Promise<List<InetAddress>>> hanging = new ArrayList<>();
    GuardedResolver slow = new GuardedResolver(vertx, AddressPolicy.STRICT, h -> {
      Promise<List<InetAddress>> p = Promise.promise();
      hanging.add(p);
      return p.future();
    }, 50);
    long t0 = System.nanoTime();
    ResolvedTarget s = resolve(slow, "slow.example");
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertThat(s.outcome()).isEqualTo(Outcome.UNRESOLVED);
    assertThat(s.detail()).contains("within 50 ms");
    assertThat(ms).isBetween(40L, 5_000L);
    hanging.get(0).complete(List.of(ip("93.184.215.14")));     // a late answer changes nothing
  }

  @Test
  void vertxsOwnResolverReadsTheHostsFileAndLocalhostIsBlocked() {
    GuardedResolver r = GuardedResolver.of(vertx, AddressPolicy.STRICT);
    ResolvedTarget t = resolve(r, "localhost");
    assertThat(t.outcome()).isEqualTo(Outcome.BLOCKED_ADDRESS);
    assertThat(t.detail()).contains("loopback");
    ResolvedTarget open = resolve(GuardedResolver.of(vertx, new AddressPolicy(true, List.of())), "localhost");
    assertThat(open.outcome()).isEqualTo(Outcome.CONNECT);
    assertThat(open.address().isLoopbackAddress()).isTrue();
  }

  @Test
  void theAnswerCompletesOnTheCallersContext() throws Exception {
    Context ctx = vertx.getOrCreateContext();
    CompletableFuture<Boolean> same = new CompletableFuture<>();
    GuardedResolver r = GuardedResolver.of(vertx, new AddressPolicy(true, List.of()));
    ctx.runOnContext(v -> r.resolve("localhost").onComplete(ar -> same.complete(Vertx.currentContext() == ctx)));
    assertThat(same.get(10, TimeUnit.SECONDS)).isTrue();
  }
}
