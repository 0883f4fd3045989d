package io.tickwheel.server.security;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.net.ServerSSLOptions;
import java.time.Instant;
import java.util.List;

/**
 * Serves a renewed certificate without a restart: polls {@code --tls-cert} and {@code --tls-key}
 * ({@link FilePoll}); when they change and the new pair checks out ({@link TlsMaterial#of}), hands it to the
 * listening server ({@link HttpServer#updateSSLOptions}): new connections get it, open ones (a WebSocket, an event
 * stream) keep theirs. A change that does not check out (half-written, the key of another certificate, expired)
 * keeps the certificate served and logs one line saying why; the next change is tried again.
 *
 * <p>Owner context only (the server's); the files are read and checked on a worker thread.
 */
public final class TlsReload {

  private static final System.Logger LOG = System.getLogger(TlsReload.class.getName());

  private final FilePoll poll;

  private TlsReload(FilePoll poll) {
    this.poll = poll;
  }

  /**
   * Starts watching on the current context.
   *
   * @param current what the server was started with
   */
  public static TlsReload watch(Vertx vertx, HttpServer server, TlsOptions tls, TlsMaterial current, long periodMs) {
    List<byte[]> initial = current.bytes();
    FilePoll poll = FilePoll.start(vertx, periodMs, List.of(tls.cert(), tls.key()), initial, contents ->
        vertx.executeBlocking(() -> check(tls, contents), false).onComplete(ar -> {
          if (ar.failed()) {
            LOG.log(System.Logger.Level.WARNING, "TLS files changed but " + ar.cause().getMessage()
                + "; still serving the certificate loaded before");
            return;
          }
          TlsMaterial next = ar.result();
          server.updateSSLOptions(new ServerSSLOptions().setKeyCertOptions(next.keyCertOptions()), true)
              .onSuccess(v -> LOG.log(System.Logger.Level.INFO, "serving the certificate re-read from --tls-cert "
                  + tls.cert() + " to new connections (" + next.describe() + ")"))
              .onFailure(e -> LOG.log(System.Logger.Level.WARNING, "the certificate re-read from --tls-cert "
                  + tls.cert() + " could not be installed (" + TlsMaterial.oneLine(e)
                  + "); still serving the one loaded before"));
        }));
    return new TlsReload(poll);
  }

  private static TlsMaterial check(TlsOptions tls, List<byte[]> contents) throws TlsMaterial.Invalid {
    if (contents.get(0) == null) {
      throw new TlsMaterial.Invalid("--tls-cert", tls.cert(), "cannot be read");
    }
    if (contents.get(1) == null) {
      throw new TlsMaterial.Invalid("--tls-key", tls.key(), "cannot be read");
    }
    return TlsMaterial.of(contents.get(0), tls.cert(), contents.get(1), tls.key(), Instant.now());
  }

  /** Stops watching. Owner context. */
  public void stop() {
    poll.stop();
  }
}
