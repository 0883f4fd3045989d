package io.tickwheel.store.redis.impl;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which Redis error messages mean "unreachable now" (the server answers 503) rather than a store fault. */
class RedisLinkErrorsTest {

  @Test
  void aPlainErrorCountsByItsCode() {
    assertThat(RedisLink.unavailableCode("LOADING Redis is loading the dataset in memory")).isTrue();
    assertThat(RedisLink.unavailableCode("CLUSTERDOWN The cluster is down")).isTrue();
    assertThat(RedisLink.unavailableCode("WRONGTYPE Operation against a key holding the wrong kind of value"))
        .isFalse();
    assertThat(RedisLink.unavailableCode("ERR unknown command")).isFalse();
  }

  @Test
  void aFailedBatchCountsByTheCodesOfItsCommands() {
    // the client reports a failed batch (transaction) as one line per failed command: "ERR [index] CODE message"
    assertThat(RedisLink.unavailableCode("ERR [0] LOADING Redis is loading the dataset in memory\n"
        + "ERR [3] EXECABORT Transaction discarded because of previous errors.")).isTrue();
    assertThat(RedisLink.unavailableCode("ERR [1] READONLY You can't write against a read only replica.")).isTrue();
    assertThat(RedisLink.unavailableCode("ERR [1] OOM command not allowed when used memory > 'maxmemory'.\n"
        + "ERR [3] EXECABORT Transaction discarded because of previous errors.")).isFalse();
  }
}
