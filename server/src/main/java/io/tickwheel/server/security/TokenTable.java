package io.tickwheel.server.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * Tokens and their roles, as a tokens file lists them: one token a line, {@code ROLE SECRET} (fields separated by
 * spaces or tabs), {@code ROLE} one of {@code read}, {@code write}, {@code admin}; {@code #} at the start of a line or
 * after a space starts a comment; blank lines are skipped. A secret is 1..{@value #MAX_TOKEN_LENGTH} printable ASCII
 * characters without spaces, and appears once.
 *
 * <p>Only SHA-256 digests of the secrets are kept, and the first {@code admin} secret (the one a node presents when
 * it calls another node, {@link #firstAdmin()}). {@link #roleOf} compares the presented token's digest with every
 * entry with {@link MessageDigest#isEqual} (constant time) and does not stop at the first match, so the time taken
 * does not depend on which entry, if any, matches. Immutable; thread safe.
 */
public final class TokenTable {

  /** Longest token, characters. */
  public static final int MAX_TOKEN_LENGTH = 4096;
  /** Most tokens in one file. */
  public static final int MAX_TOKENS = 10_000;

  /** A bad line; the message names the line and the problem, never the secret. */
  public static final class Invalid extends Exception {
    private static final long serialVersionUID = 1L;
    /** The line at fault, 1-based; 0 for the file as a whole. */
    public final int line;

    Invalid(int line, String problem) {
      super((line > 0 ? "line " + line + ": " : "") + problem, null, false, false);
      this.line = line;
    }
  }

  private record Entry(byte[] digest, Role role) {}

  private final List<Entry> entries;
  private final String firstAdmin;

  private TokenTable(List<Entry> entries, String firstAdmin) {
    this.entries = List.copyOf(entries);
    this.firstAdmin = firstAdmin;
  }

  /** No tokens. */
  public static TokenTable empty() {
    return new TokenTable(List.of(), null);
  }

  /** The first {@code admin} secret ({@code --token}'s, if given), or {@code null}: what a node sends to another. */
  public String firstAdmin() {
    return firstAdmin;
  }

  /**
   * Parses a tokens file's text.
   *
   * @throws Invalid at the first bad line: an unknown role, a missing or extra field, a secret that is not
   *     printable ASCII or too long, a secret listed twice; or more than {@value #MAX_TOKENS} tokens
   */
  public static TokenTable parse(String text) throws Invalid {
    List<Entry> entries = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    String admin = null;
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      int n = i + 1;
      String line = stripComment(lines[i]).strip();
      if (line.isEmpty()) {
        continue;
      }
      String[] fields = line.split("[ \t]+");
      if (fields.length != 2) {
        throw new Invalid(n, "expected ROLE SECRET (two fields), found " + fields.length
            + (fields.length == 1 ? " (a role without a secret, or a secret without a role)" : ""));
      }
      Role role = Role.of(fields[0]);
      if (role == null) {
        throw new Invalid(n, "unknown role '" + shorten(fields[0]) + "': must be read, write or admin");
      }
      String secret = fields[1];
      if (!validSecret(secret)) {
        throw new Invalid(n, "the secret must be 1.." + MAX_TOKEN_LENGTH
            + " printable ASCII characters without spaces");
      }
      byte[] d = sha256(secret);
      if (!seen.add(HexFormat.of().formatHex(d))) {
        throw new Invalid(n, "this secret is listed on an earlier line already");
      }
      if (entries.size() == MAX_TOKENS) {
        throw new Invalid(n, "more than " + MAX_TOKENS + " tokens");
      }
      entries.add(new Entry(d, role));
      if (role == Role.ADMIN && admin == null) {
        admin = secret;
      }
    }
    return new TokenTable(entries, admin);
  }

  /** This table with {@code secret} as an {@code admin} token too (the {@code --token} flag); {@code null}: as is. */
  public TokenTable withAdmin(String secret) {
    if (secret == null) {
      return this;
    }
    List<Entry> all = new ArrayList<>(entries.size() + 1);
    all.add(new Entry(sha256(secret), Role.ADMIN));
    byte[] d = all.get(0).digest();
    for (Entry e : entries) {
      if (!MessageDigest.isEqual(e.digest(), d)) {
        all.add(e);
      }
    }
    return new TokenTable(all, secret);
  }

  /** Whether {@code s} is a well-formed secret. */
  public static boolean validSecret(String s) {
    return s != null && !s.isEmpty() && s.length() <= MAX_TOKEN_LENGTH && s.chars().allMatch(c -> c > 0x20 && c < 0x7f);
  }

  /** The role of the token whose SHA-256 digest is {@code digest}, or {@code null} for none (constant time). */
  public Role roleOfDigest(byte[] digest) {
    Role found = null;
    for (Entry e : entries) {
      if (MessageDigest.isEqual(e.digest(), digest) && found == null) {
        found = e.role();
      }
    }
    return found;
  }

  /** The role of {@code token}, or {@code null} if it is none of these (constant time in the token). */
  public Role roleOf(String token) {
    return token == null ? null : roleOfDigest(sha256(token));
  }

  /** The digests of this table's tokens that {@code next} does not have. */
  public List<byte[]> removedIn(TokenTable next) {
    List<byte[]> gone = new ArrayList<>();
    for (Entry e : entries) {
      if (next.roleOfDigest(e.digest()) == null) {
        gone.add(e.digest());
      }
    }
    return gone;
  }

  /** How many tokens each role has, for log lines: {@code 2 read, 1 write, 1 admin}. */
  public String summary() {
    int[] n = new int[Role.values().length];
    for (Entry e : entries) {
      n[e.role().ordinal()]++;
    }
    return n[0] + " read, " + n[1] + " write, " + n[2] + " admin";
  }

  /** How many tokens. */
  public int size() {
    return entries.size();
  }

  /** SHA-256 of the token's UTF-8 bytes. */
  public static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String stripComment(String line) {
    for (int i = 0; i < line.length(); i++) {
      if (line.charAt(i) == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
        return line.substring(0, i);
      }
    }
    return line;
  }

  private static String shorten(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "…";
  }
}
