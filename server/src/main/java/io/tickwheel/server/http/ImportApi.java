package io.tickwheel.server.http;

import io.tickwheel.core.model.Timer;
import io.tickwheel.core.model.TimerImport;
import io.tickwheel.core.model.TimerParser;
import io.tickwheel.core.model.ValidationException;
import io.tickwheel.server.route.Timers;
import io.tickwheel.server.scheduler.Refusal;
import io.tickwheel.server.scheduler.WriteOutcome;
import io.tickwheel.server.wire.BodyLimit;
import io.tickwheel.server.wire.ErrorBody;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code POST /v1/import}: a body of NDJSON timers as {@code GET /v1/export} writes them, any size, streamed. Each line
 * creates or replaces its timer keeping its {@code nextDueAt}, {@code firings} and {@code createdAt}
 * ({@link TimerImport}, which validates the definition with the API's parser and its field-naming messages). Answer:
 * 200 {@code {"imported":N,"failed":M,"errors":[{"line":K,"error":{"code","message","field"?}}…]}} with the first
 * {@value #MAX_ERRORS} errors; a bad line never stops the others and changes nothing.
 *
 * <p><b>Streamed, bounded.</b> The body is read chunk by chunk and cut into lines ({@link NdjsonLines}); valid lines
 * gather into batches of at most {@value #BATCH} timers or {@value #BATCH_BYTES} bytes (ids distinct: a repeated id
 * flushes the batch first, so lines apply in order and the last one of an id wins), each written with one
 * {@link Timers#restoreAll} (in a cluster, routed to the partitions' owners as batch creates are). The request is paused
 * while a batch is written: a fast client waits for the store, nothing piles up. A line is at most
 * {@value #MAX_LINE_BYTES} bytes (the API's body limit); a longer one is reported as {@code payload_too_large} and
 * skipped. Blank lines are skipped. Per line errors: {@code invalid_argument} (not JSON, not an object, a field the API
 * refuses), {@code payload_too_large}, and the write's refusals ({@code resource_exhausted}, {@code unavailable}, …).
 *
 * <p>Event loop of the request only.
 */
public final class ImportApi {

  /** Timers per store write. */
  public static final int BATCH = 500;
  /** Line bytes per store write, at most (a batch is flushed once its lines pass it). */
  public static final int BATCH_BYTES = 4 << 20;
  /** The longest line, bytes: the API's body limit. */
  public static final int MAX_LINE_BYTES = (int) BodyLimit.MAX_BODY_BYTES;
  /** Errors listed in the answer, at most (all are counted in {@code failed}). */
  public static final int MAX_ERRORS = 100;

  private final Timers timers;
  private final TimerParser parser;

  public ImportApi(Timers timers, TimerParser parser) {
    this.timers = timers;
    this.parser = parser;
  }

  /** {@code POST /v1/import}. */
  public void handle(RoutingContext rc) {
    new Run(rc).start();
  }

  /** One import. */
  private final class Run {
    private final RoutingContext rc;
    private final HttpServerRequest req;
    private final NdjsonLines lines = new NdjsonLines(MAX_LINE_BYTES);
    private final List<Timer> batch = new ArrayList<>();
    private final List<Long> batchLines = new ArrayList<>();
    private final Set<String> batchIds = new HashSet<>();
    private long batchBytes;
    private final JsonArray errors = new JsonArray();
    private long imported;
    private long failed;
    private boolean gone;

    Run(RoutingContext rc) {
      this.rc = rc;
      this.req = rc.request();
    }

    void start() {
      req.pause();
      req.exceptionHandler(e -> gone = true);
      req.handler(chunk -> {
        Future<Void> done = process(lines.feed(chunk), 0);
        if (!done.isComplete()) {
          // a batch is being written: nothing more is read until it is
          req.pause();
          done.onComplete(ar -> {
            if (!gone) {
              req.resume();
            }
          });
        }
      });
      req.endHandler(v -> {
        NdjsonLines.Line last = lines.end();
        process(last == null ? List.of() : List.of(last), 0).compose(x -> flush()).onComplete(ar -> answer());
      });
      req.resume();
    }

    /** Takes lines {@code from} on; completes once every batch they filled is written. */
    private Future<Void> process(List<NdjsonLines.Line> ls, int from) {
      for (int i = from; i < ls.size(); i++) {
        NdjsonLines.Line line = ls.get(i);
        Timer t = read(line);
        if (t == null) {
          continue;
        }
        int next = i + 1;
        if (batchIds.contains(t.id())) {
          return flush().compose(v -> {
            add(t, line);
            return process(ls, next);
          });
        }
        add(t, line);
        if (batch.size() >= BATCH || batchBytes >= BATCH_BYTES) {
          return flush().compose(v -> process(ls, next));
        }
      }
      return Future.succeededFuture();
    }

    private void add(Timer t, NdjsonLines.Line line) {
      batch.add(t);
      batchLines.add(line.number());
      batchIds.add(t.id());
      batchBytes += line.bytes().length();
    }

    /** The line's timer, or {@code null} (blank, or refused: then reported). */
    private Timer read(NdjsonLines.Line line) {
      if (line.tooLong()) {
        fail(line.number(), ApiException.tooLarge(null, "line " + line.number() + " is longer than "
            + MAX_LINE_BYTES + " bytes (the longest line an import takes)"));
        return null;
      }
      Buffer b = line.bytes();
      if (isBlank(b)) {
        return null;
      }
      Object v;
      try {
        v = JsonBodies.decode(b);
      } catch (DecodeException e) {
        fail(line.number(), ApiException.invalid(null, "the line is not valid JSON: " + firstLine(e.getMessage())));
        return null;
      } catch (ValidationException e) {
        fail(line.number(), ErrorResponses.toApi(e, 400));
        return null;
      } catch (RuntimeException e) {
        fail(line.number(), ApiException.invalid(null, "the line is not valid JSON"));
        return null;
      }
      if (!(v instanceof JsonObject o)) {
        fail(line.number(), ApiException.invalid(null, "a line must be a JSON object (a timer), was "
            + JsonBodies.kind(v)));
        return null;
      }
      try {
        return TimerImport.read(parser, o, timers.now(), 1);
      } catch (ValidationException e) {
        fail(line.number(), ErrorResponses.toApi(e, 400));
      } catch (RuntimeException e) {
        fail(line.number(), ApiException.invalid(null, "invalid timer: "
            + ErrorResponses.shorten(String.valueOf(e.getMessage()))));
      }
      return null;
    }

    /** Writes the batch; its refused items are reported. Never fails. */
    private Future<Void> flush() {
      if (batch.isEmpty()) {
        return Future.succeededFuture();
      }
      List<Timer> ts = new ArrayList<>(batch);
      List<Long> numbers = new ArrayList<>(batchLines);
      batch.clear();
      batchLines.clear();
      batchIds.clear();
      batchBytes = 0;
      return timers.restoreAll(ts).transform(ar -> {
        for (int i = 0; i < ts.size(); i++) {
          WriteOutcome o = ar.succeeded() ? ar.result().get(i) : null;
          if (o instanceof WriteOutcome.Created || o instanceof WriteOutcome.Replaced) {
            imported++;
          } else {
            fail(numbers.get(i), o instanceof Refusal r ? OutcomeMapping.error(r)
                : ApiException.internal("internal error: " + (ar.failed() ? ar.cause() : o)));
          }
        }
        return Future.succeededFuture();
      });
    }

    private void fail(long line, ApiException e) {
      failed++;
      if (errors.size() < MAX_ERRORS) {
        errors.add(new JsonObject().put("line", line).put("error", ErrorBody.detail(e.code(), e.getMessage(), e.field())));
      }
    }

    private void answer() {
      if (gone || rc.response().closed()) {
        return;
      }
      Replies.json(rc, 200, new JsonObject().put("imported", imported).put("failed", failed).put("errors", errors)
          .toBuffer());
    }
  }

  private static boolean isBlank(Buffer b) {
    for (int i = 0; i < b.length(); i++) {
      byte c = b.getByte(i);
      if (c != ' ' && c != '\t' && c != '\r') {
        return false;
      }
    }
    return true;
  }

  private static String firstLine(String m) {
    if (m == null) {
      return "";
    }
    int nl = m.indexOf('\n');
    return ErrorResponses.shorten(nl < 0 ? m : m.substring(0, nl));
  }
}
