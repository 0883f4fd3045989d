package io.tickwheel.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The tokens file format: {@code ROLE SECRET} a line, comments, and the errors naming the line. */
class TokenTableTest {

  @Test
  void eachLineGivesItsTokenARole() throws Exception {
    TokenTable t = TokenTable.parse("""
        # the team's tokens
        read   r-secret-1
        write\tw-secret   # the scheduler service

        admin a#secret
        """);
    assertThat(t.roleOf("r-secret-1")).isEqualTo(Role.READ);
    assertThat(t.roleOf("w-secret")).isEqualTo(Role.WRITE);
    assertThat(t.roleOf("a#secret")).as("a # inside a secret is part of it").isEqualTo(Role.ADMIN);
    assertThat(t.roleOf("unknown")).isNull();
    assertThat(t.roleOf(null)).isNull();
    assertThat(t.summary()).isEqualTo("1 read, 1 write, 1 admin");
    assertThat(t.firstAdmin()).isEqualTo("a#secret");
  }

  @Test
  void theTokenFlagIsAnAdminTokenBesideTheFile() throws Exception {
    TokenTable t = TokenTable.parse("read r\n").withAdmin("flag-token");
    assertThat(t.roleOf("flag-token")).isEqualTo(Role.ADMIN);
    assertThat(t.roleOf("r")).isEqualTo(Role.READ);
    assertThat(t.firstAdmin()).isEqualTo("flag-token");
    assertThat(TokenTable.parse("read same\n").withAdmin("same").roleOf("same")).isEqualTo(Role.ADMIN);
  }

  @Test
  void aBadLineIsNamedByItsNumberAndTheSecretIsNeverInTheMessage() {
    assertThatThrownBy(() -> TokenTable.parse("read ok\nreader s3cr3t\n"))
        .isInstanceOfSatisfying(TokenTable.Invalid.class, e -> assertThat(e.line).isEqualTo(2))
        .hasMessage("line 2: unknown role 'reader': must be read, write or admin");
    assertThatThrownBy(() -> TokenTable.parse("\n\nwrite\n"))
        .hasMessageStartingWith("line 3: expected ROLE SECRET (two fields), found 1");
    assertThatThrownBy(() -> TokenTable.parse("write a b\n")).hasMessageStartingWith("line 1: expected ROLE SECRET")
        .hasMessageNotContaining(" a b");
    assertThatThrownBy(() -> TokenTable.parse("read s3cr3t\nadmin s3cr3t\n"))
        .hasMessage("line 2: this secret is listed on an earlier line already");
    assertThatThrownBy(() -> TokenTable.parse("read caf\u00e9\n"))
        .hasMessageStartingWith("line 1: the secret must be").hasMessageNotContaining("caf");
  }

  @Test
  void removedTokensAreTheOnesTheNextTableLacks() throws Exception {
    TokenTable before = TokenTable.parse("read a\nwrite b\nadmin c\n");
    TokenTable after = TokenTable.parse("read a\nread b\n");
    assertThat(before.removedIn(after)).hasSize(1)
        .allSatisfy(d -> assertThat(d).isEqualTo(TokenTable.sha256("c")));
    assertThat(after.roleOf("b")).as("a role changed, not removed").isEqualTo(Role.READ);
  }

  @Test
  void rolesIncludeTheOnesBelow() {
    assertThat(Role.ADMIN.allows(Role.WRITE)).isTrue();
    assertThat(Role.WRITE.allows(Role.READ)).isTrue();
    assertThat(Role.WRITE.allows(Role.ADMIN)).isFalse();
    assertThat(Role.READ.allows(Role.WRITE)).isFalse();
  }
}
