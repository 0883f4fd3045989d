package io.tickwheel.server.security;

import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The tokens the server takes now: {@code --token} (an {@code admin} token) and those of {@code --tokens-file},
 * which is re-read when it changes ({@link #watch}). A file that changes to something that does not parse keeps the
 * tokens loaded before, and logs one line naming the file and the line at fault (never a secret). When a change
 * removes tokens, the {@link #onRevoked} listeners hear of their digests (to close the streams opened with them).
 *
 * <p>Without either flag the server takes no token ({@link #required()} is false): every call is allowed.
 *
 * <p>{@link #roleOf} may be called from any thread (the table is swapped with a volatile write);
 * {@link #watch}, {@link #onRevoked} and {@link #stop} on the owner context, where the listeners are called.
 */
public final class Tokens {

  private static final System.Logger LOG = System.getLogger(Tokens.class.getName());

  private final String adminToken;
  private final Path file;
  private final List<Consumer<List<byte[]>>> revokedListeners = new ArrayList<>();
  private final byte[] loaded;
  private volatile TokenTable table;
  private FilePoll poll;

  private Tokens(String adminToken, Path file, TokenTable fromFile, byte[] loaded) {
    this.adminToken = adminToken;
    this.file = file;
    this.loaded = loaded;
    this.table = fromFile.withAdmin(adminToken);
  }

  /** Only {@code --token} (or none). */
  public static Tokens single(String adminToken) {
    return new Tokens(adminToken, null, TokenTable.empty(), null);
  }

  /**
   * {@code --token} and the tokens of {@code file} (blocking: reads the file).
   *
   * @param adminToken the {@code --token} secret, or {@code null}
   * @param file       the {@code --tokens-file}, or {@code null}
   * @throws TokenTable.Invalid naming the line at fault, or line 0 when the file cannot be read
   */
  public static Tokens load(String adminToken, Path file) throws TokenTable.Invalid {
    if (file == null) {
      return single(adminToken);
    }
    byte[] bytes = FilePoll.read(List.of(file)).get(0);
    if (bytes == null) {
      throw new TokenTable.Invalid(0, "cannot be read (missing, or not readable by this user)");
    }
    return new Tokens(adminToken, file, TokenTable.parse(new String(bytes, StandardCharsets.UTF_8)), bytes);
  }

  /** Whether calls need a token. */
  public boolean required() {
    return adminToken != null || file != null;
  }

  /** The role of {@code token} now, or {@code null} for an unknown one. Any thread. */
  public Role roleOf(String token) {
    return table.roleOf(token);
  }

  /** The role of the token with this SHA-256 digest now, or {@code null}. Any thread. */
  public Role roleOfDigest(byte[] digest) {
    return table.roleOfDigest(digest);
  }

  /** The admin secret this node presents to other nodes ({@code --token}, else the file's first admin), or null. */
  public String internalToken() {
    return table.firstAdmin();
  }

  /** Calls {@code listener} with the digests of tokens a re-read of the file removed. Owner context. */
  public void onRevoked(Consumer<List<byte[]>> listener) {
    revokedListeners.add(listener);
  }

  /** Re-reads the file every {@code periodMs} while it changes (nothing without a file). Owner context. */
  public void watch(Vertx vertx, long periodMs) {
    if (file == null || poll != null) {
      return;
    }
    poll = FilePoll.start(vertx, periodMs, List.of(file), java.util.Collections.singletonList(loaded), contents -> {
      byte[] bytes = contents.get(0);
      if (bytes == null) {
        LOG.log(System.Logger.Level.WARNING, "--tokens-file " + file + " cannot be read; keeping the tokens "
            + "loaded before (" + table.summary() + ")");
        return;
      }
      TokenTable next;
      try {
        next = TokenTable.parse(new String(bytes, StandardCharsets.UTF_8)).withAdmin(adminToken);
      } catch (TokenTable.Invalid e) {
        LOG.log(System.Logger.Level.WARNING, "--tokens-file " + file + " " + e.getMessage()
            + "; keeping the tokens loaded before (" + table.summary() + ")");
        return;
      }
      List<byte[]> removed = table.removedIn(next);
      table = next;
      LOG.log(System.Logger.Level.INFO, "re-read --tokens-file " + file + ": " + next.summary()
          + (removed.isEmpty() ? "" : "; " + removed.size() + " removed, their streams closed"));
      if (!removed.isEmpty()) {
        for (Consumer<List<byte[]>> l : revokedListeners) {
          l.accept(removed);
        }
      }
    });
  }

  /** Stops re-reading. Owner context. */
  public void stop() {
    if (poll != null) {
      poll.stop();
      poll = null;
    }
  }
}
