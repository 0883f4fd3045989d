package io.tickwheel.store.redis.impl;

import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.core.store.StoreException;
import io.tickwheel.core.store.StoreFaultException;
import io.tickwheel.core.store.StoreUnavailableException;
import io.vertx.core.Future;
import io.vertx.redis.client.impl.types.ErrorType;
import java.io.IOException;
import java.net.SocketException;
import org.junit.jupiter.api.Test;

/**
 * How the client's failures map to the store's exceptions. The messages are the ones vertx-redis-client produces
 * (seen in {@code RedisWritesUnderRestartTest} against a real redis-server killed under load).
 */
class RedisFailuresTest {

  private final RedisFailures failures = new RedisFailures("redis redis://127.0.0.1:6390");

  private StoreException write(Throwable t) {
    return failures.map(t, "createAll", true);
  }

  private StoreException read(Throwable t) {
    return failures.map(t, "HGET", false);
  }

  @Test
  void aPlainErrorCountsByItsCode() {
    assertThat(RedisFailures.unavailableCode("LOADING Redis is loading the dataset in memory")).isTrue();
    assertThat(RedisFailures.unavailableCode("CLUSTERDOWN The cluster is down")).isTrue();
    assertThat(RedisFailures.unavailableCode("WRONGTYPE Operation against a key holding the wrong kind of value"))
        .isFalse();
    assertThat(RedisFailures.unavailableCode("ERR unknown command")).isFalse();
  }

  @Test
  void aFailedBatchCountsByTheCodesOfItsCommands() {
    // the client reports a failed batch (transaction) as one line per failed command: "ERR [index] CODE message"
    assertThat(RedisFailures.unavailableCode("ERR [0] LOADING Redis is loading the dataset in memory\n"
        + "ERR [3] EXECABORT Transaction discarded because of previous errors.")).isTrue();
    assertThat(RedisFailures.unavailableCode("ERR [1] READONLY You can't write against a read only replica."))
        .isTrue();
    assertThat(RedisFailures.unavailableCode("ERR [1] OOM command not allowed when used memory > 'maxmemory'.\n"
        + "ERR [3] EXECABORT Transaction discarded because of previous errors.")).isFalse();
  }

  @Test
  void aConnectionResetDuringATransactionIsUnavailableAndMayHaveBeenApplied() {
    StoreException e = write(ErrorType.create("ERR [0] java.net.SocketException: Connection reset\n"
        + "ERR [1] java.net.SocketException: Connection reset\nERR [2] java.net.SocketException: Connection reset\n"
        + "ERR [3] java.net.SocketException: Connection reset"));
    assertThat(e).isInstanceOf(StoreUnavailableException.class)
        .hasMessageContaining("createAll").hasMessageContaining("java.net.SocketException: Connection reset")
        .hasMessageNotContaining("\n");
    assertThat(e.mayHaveApplied()).isTrue();
    StoreException native_ = write(ErrorType.create("ERR [0] io.netty.channel.unix.Errors$NativeIoException: "
        + "recvAddress(..) failed: Connection reset by peer"));
    assertThat(native_).isInstanceOf(StoreUnavailableException.class).hasMessageContaining("Connection reset by peer");
  }

  @Test
  void aConnectionClosedByTheServerIsUnavailableAndMayHaveBeenApplied() {
    StoreException plain = write(ErrorType.create("CONNECTION_CLOSED"));
    assertThat(plain).isInstanceOf(StoreUnavailableException.class);
    assertThat(plain.mayHaveApplied()).isTrue();
    StoreException batch = write(ErrorType.create("ERR [0] CONNECTION_CLOSED\nERR [1] CONNECTION_CLOSED"));
    assertThat(batch).isInstanceOf(StoreUnavailableException.class);
    assertThat(batch.mayHaveApplied()).isTrue();
  }

  @Test
  void aBrokenSocketIsUnavailableAndMayHaveBeenApplied() {
    StoreException e = write(new IOException("Connection reset by peer"));
    assertThat(e).isInstanceOf(StoreUnavailableException.class).hasMessageContaining("Connection reset by peer");
    assertThat(e.mayHaveApplied()).isTrue();
    assertThat(write(new SocketException("Broken pipe")).mayHaveApplied()).isTrue();
  }

  @Test
  void theClientsRefusalsBeforeSendingAreUnavailableAndNotApplied() {
    for (String refusal : new String[] {"Connection is closed", "Redis waiting queue is full",
        "Failed obtaining connection to: redis://127.0.0.1:7001"}) {
      StoreException e = write(Future.failedFuture(refusal).cause());
      assertThat(e).as(refusal).isInstanceOf(StoreUnavailableException.class);
      assertThat(e.mayHaveApplied()).as(refusal).isFalse();
    }
  }

  @Test
  void aRefusalByRedisIsUnavailableAndNotApplied() {
    StoreException e = write(ErrorType.create("LOADING Redis is loading the dataset in memory"));
    assertThat(e).isInstanceOf(StoreUnavailableException.class);
    assertThat(e.mayHaveApplied()).isFalse();
  }

  @Test
  void otherRedisErrorsAreFaultsAndMayHaveBeenAppliedUnlessRedisRanNothing() {
    StoreException wrongType = write(ErrorType.create("WRONGTYPE Operation against a key holding the wrong kind"));
    assertThat(wrongType).isInstanceOf(StoreFaultException.class);
    assertThat(wrongType.mayHaveApplied()).as("the transaction's other commands ran").isTrue();
    StoreException discarded = write(ErrorType.create("ERR [1] OOM command not allowed when used memory > "
        + "'maxmemory'.\nERR [3] EXECABORT Transaction discarded because of previous errors."));
    assertThat(discarded).isInstanceOf(StoreFaultException.class);
    assertThat(discarded.mayHaveApplied()).as("a discarded transaction ran nothing").isFalse();
    StoreException arity = write(ErrorType.create("ERR [1] wrong number of arguments for 'zadd' command"));
    assertThat(arity).as("a reply is not mistaken for a lost connection").isInstanceOf(StoreFaultException.class);
  }

  @Test
  void aFailedReadNeverReportsThatItMayHaveBeenApplied() {
    assertThat(read(ErrorType.create("CONNECTION_CLOSED")).mayHaveApplied()).isFalse();
    assertThat(read(new IOException("Connection reset by peer"))).isInstanceOf(StoreUnavailableException.class);
    assertThat(read(new IOException("Connection reset by peer")).mayHaveApplied()).isFalse();
  }

  @Test
  void describeMasksThePasswordOfAnyUriInAMessage() {
    assertThat(RedisFailures.describe(new IOException("cannot reach redis://:s3cret@10.0.0.1:6379")))
        .isEqualTo("IOException: cannot reach redis://***@10.0.0.1:6379");
  }

  @Test
  void aScriptsOwnRefusalIsAScriptRefusalWithItsCodeThatWasNotApplied() {
    StoreException e = write(ErrorType.create("FENCED lease epoch 17 is not current (stored 18, expires 5, now 6)"));
    assertThat(e).isInstanceOf(ScriptRefusal.class);
    assertThat(((ScriptRefusal) e).code()).isEqualTo("FENCED");
    assertThat(((ScriptRefusal) e).reply()).startsWith("lease epoch 17");
    assertThat(e.mayHaveApplied()).isFalse();
    StoreException c = read(ErrorType.create("CLUSTER a tickwheel cluster with 256 partitions uses this store"));
    assertThat(((ScriptRefusal) c).code()).isEqualTo("CLUSTER");
    assertThat(write(ErrorType.create("ERR FENCED is not a code here"))).isNotInstanceOf(ScriptRefusal.class);
  }
}
