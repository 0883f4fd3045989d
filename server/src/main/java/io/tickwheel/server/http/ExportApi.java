package io.tickwheel.server.http;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerJson;
import io.tickwheel.core.model.TopicRule;
import io.tickwheel.core.model.ValidationException;
import io.tickwheel.core.store.TimerExport;
import io.tickwheel.server.scheduler.Refusal;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code GET /v1/export[?topic=a,b[&topic=c]]}: every timer with its whole state, one NDJSON line each
 * ({@link TimerJson#appendExport}), {@code application/x-ndjson}, streamed as the store reads it.
 *
 * <p><b>Back-pressure, bounded memory.</b> The store hands out {@value #BATCH} timers at a time
 * ({@link TimerExport#exportAll}); each batch is encoded and written, and the next is read only once the response's
 * write queue is below its high-water mark again (its drain handler). What the export holds is one batch, its encoded
 * text and the connection's write queue, whatever the number of timers. A client that goes away releases the store's
 * snapshot at once.
 *
 * <p><b>Sources.</b> A single node reads its store's snapshot; a cluster node reads every partition's data in the shared
 * Redis directly (read-only partition readers, one partition after the other), so any node exports the whole cluster
 * without calling the others. What "snapshot" means per store is {@link TimerExport}'s (Redis: paged, exact when
 * nothing fires or is written meanwhile; hence pausing the topics before an export).
 *
 * <p><b>Failure.</b> A store failure before the first line answers the API's error (503); after it, the response is
 * cut off (the connection is reset, so the client sees an incomplete chunked transfer, never a clean end).
 *
 * <p>Runs on the event loop that serves the request; the store reads run on the store's threads.
 */
public final class ExportApi {

  private static final System.Logger LOG = System.getLogger(ExportApi.class.getName());

  /** Timers per store read. */
  public static final int BATCH = 256;

  private final Supplier<List<TimerExport>> sources;

  /** @param sources what one export reads, in order (called once per export) */
  public ExportApi(Supplier<List<TimerExport>> sources) {
    this.sources = sources;
  }

  /** {@code GET /v1/export}. */
  public void export(RoutingContext rc) {
    Set<String> topics = topics(rc.queryParam("topic"));
    List<TimerExport> all;
    try {
      all = sources.get();
    } catch (RuntimeException e) {
      rc.fail(OutcomeMapping.error(Refusal.ofStoreFailure(e, false)));
      return;
    }
    HttpServerResponse res = rc.response();
    Stream s = new Stream(res, topics);
    res.closeHandler(v -> s.gone());
    res.exceptionHandler(e -> s.gone());
    res.setChunked(true).putHeader(HttpHeaders.CONTENT_TYPE, "application/x-ndjson");
    Future<Void> done = Future.succeededFuture();
    for (TimerExport source : all) {
      done = done.compose(v -> source.exportAll(BATCH, s::write).mapEmpty());
    }
    done.onComplete(ar -> {
      if (s.closed) {
        return;
      }
      if (ar.succeeded()) {
        res.end();
      } else if (!res.headWritten()) {
        rc.fail(OutcomeMapping.error(Refusal.ofStoreFailure(ar.cause(), false)));
      } else {
        LOG.log(System.Logger.Level.WARNING, "export cut off after " + s.lines + " timers: " + ar.cause());
        res.reset();
      }
    });
  }

  /**
   * The {@code topic} filter: the topics the values name (each comma-separated), or {@code null} for all when the
   * parameter is absent. An empty value names the empty topic, which is refused as any invalid name is.
   */
  private static Set<String> topics(List<String> params) {
    if (params.isEmpty()) {
      return null;
    }
    Set<String> out = new HashSet<>();
    for (String param : params) {
      for (String t : param.split(",", -1)) {
        try {
          TopicRule.check("topic", t);
        } catch (ValidationException e) {
          throw ErrorResponses.toApi(e, 400);
        }
        out.add(t);
      }
    }
    return out;
  }

  /** One export's writing side. Event loop only. */
  private static final class Stream {
    private final HttpServerResponse res;
    private final Set<String> topics;
    private Promise<Void> drained;
    private boolean closed;
    private long lines;

    Stream(HttpServerResponse res, Set<String> topics) {
      this.res = res;
      this.topics = topics;
    }

    /** The store's sink: writes a batch; its future completes once the connection takes more. */
    Future<Void> write(List<Timer> batch) {
      if (closed) {
        return Future.failedFuture(new IllegalStateException("the client went away"));
      }
      StringBuilder sb = new StringBuilder(256 * batch.size());
      for (Timer t : batch) {
        if (topics == null || topics.contains(t.topic())) {
          TimerJson.appendExport(sb, t).append('\n');
          lines++;
        }
      }
      if (sb.length() > 0) {
        res.write(Buffer.buffer(sb.toString()));
      }
      if (!res.writeQueueFull()) {
        return Future.succeededFuture();
      }
      Promise<Void> p = Promise.promise();
      drained = p;
      res.drainHandler(v -> {
        drained = null;
        p.tryComplete();
      });
      return p.future();
    }

    /** The connection closed or failed: the store's next sink call (or the one waiting) fails. */
    void gone() {
      closed = true;
      Promise<Void> p = drained;
      if (p != null) {
        drained = null;
        p.tryFail("the client went away");
      }
    }
  }
}
