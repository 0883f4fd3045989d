package io.tickwheel.server.http;

import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.PATCH;
import static io.vertx.core.http.HttpMethod.POST;
import static io.vertx.core.http.HttpMethod.PUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.OpenApiValidator;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input never gets a 500 and never hangs: each row of the table gets its status and the contract's error code,
 * with the offending field when there is one.
 */
@ExtendWith(BlockedThreadGuard.class)
class BadInputTest {

  static Vertx vertx;
  static ServerHarness s;

  @BeforeAll
  static void start() {
    vertx = TestVertx.create();
    s = ServerHarness.start(vertx);
    s.send(PUT, "/v1/timers/existing", "{\"delayMs\":600000}");
  }

  @AfterAll
  static void stop() {
    s.close();
    TestVertx.close(vertx);
  }

  static Stream<Arguments> table() {
    String big = "\"" + "x".repeat(64 * 1024) + "\"";
    return Stream.of(
        // method, uri, body, status, code, field
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":", 400, "invalid_argument", null),
        Arguments.of(POST, "/v1/timers", "not json", 400, "invalid_argument", null),
        Arguments.of(POST, "/v1/timers", "", 400, "invalid_argument", null),
        Arguments.of(POST, "/v1/timers", "[1,2]", 400, "invalid_argument", null),
        Arguments.of(POST, "/v1/timers", "42", 400, "invalid_argument", null),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":\"soon\"}", 400, "invalid_argument", "delayMs"),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":1.5}", 400, "invalid_argument", "delayMs"),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":1e999}", 400, "invalid_argument", "delayMs"),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":99999999999999999999999}", 400, "invalid_argument", "delayMs"),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":-1}", 400, "invalid_argument", "delayMs"),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":" + (3654L * 24 * 3600 * 1000) + "}", 400, "invalid_argument", "delayMs"),
        Arguments.of(POST, "/v1/timers", "{\"at\":\"tomorrow\"}", 400, "invalid_argument", "at"),
        Arguments.of(POST, "/v1/timers", "{\"at\":\"2999-01-01T00:00:00Z\"}", 400, "invalid_argument", "at"),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":1,\"at\":5}", 400, "invalid_argument", "at"),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":1,\"colour\":\"red\"}", 400, "invalid_argument", "colour"),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":1,\"kind\":\"sometimes\"}", 400, "invalid_argument", "kind"),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":1,\"kind\":7}", 400, "invalid_argument", "kind"),
        Arguments.of(POST, "/v1/timers", "{\"kind\":\"fixed-rate\"}", 400, "invalid_argument", "periodMs"),
        Arguments.of(POST, "/v1/timers", "{\"kind\":\"fixed-rate\",\"periodMs\":1}", 400, "invalid_argument", "periodMs"),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":1,\"periodMs\":100}", 400, "invalid_argument", "periodMs"),
        Arguments.of(POST, "/v1/timers", "{}", 400, "invalid_argument", "delayMs"),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":1,\"maxFirings\":0}", 400, "invalid_argument", "maxFirings"),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":1,\"misfire\":\"maybe\"}", 400, "invalid_argument", "misfire"),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":1,\"id\":\"has space\"}", 400, "invalid_argument", "id"),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":1,\"id\":\"" + "a".repeat(201) + "\"}", 400, "invalid_argument", "id"),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":1,\"id\":5}", 400, "invalid_argument", "id"),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":1,\"topic\":\"a/b\"}", 400, "invalid_argument", "topic"),
        Arguments.of(POST, "/v1/timers", "{\"delayMs\":1,\"payload\":" + big + "}", 413, "payload_too_large", "payload"),
        Arguments.of(POST, "/v1/timers", "{\"id\":\"existing\",\"delayMs\":1}", 409, "already_exists", "id"),
        Arguments.of(PUT, "/v1/timers/bad%20id", "{\"delayMs\":1}", 400, "invalid_argument", "id"),
        Arguments.of(PUT, "/v1/timers/a", "{\"id\":\"b\",\"delayMs\":1}", 400, "invalid_argument", "id"),
        Arguments.of(GET, "/v1/timers/" + "a".repeat(201), null, 400, "invalid_argument", "id"),
        Arguments.of(POST, "/v1/timers/existing/touch", "{\"delayMs\":-5}", 400, "invalid_argument", "delayMs"),
        Arguments.of(POST, "/v1/timers/existing/touch", "[]", 400, "invalid_argument", null),
        Arguments.of(POST, "/v1/timers", "null", 400, "invalid_argument", null),
        Arguments.of(PUT, "/v1/timers/a", "null", 400, "invalid_argument", null),
        Arguments.of(POST, "/v1/timers/touch", "null", 400, "invalid_argument", null),
        Arguments.of(POST, "/v1/timers/batch", "{\"timers\":{}}", 400, "invalid_argument", "timers"),
        Arguments.of(POST, "/v1/timers/batch", "{\"items\":[]}", 400, "invalid_argument", "items"),
        Arguments.of(GET, "/v1/nothing-here", null, 404, "not_found", null),
        Arguments.of(GET, "/elsewhere", null, 404, "not_found", null),
        Arguments.of(PATCH, "/v1/timers/existing", "{}", 405, "method_not_allowed", null),
        Arguments.of(PUT, "/v1/timers", "{}", 405, "method_not_allowed", null));
  }

  @ParameterizedTest(name = "{0} {1} {2} -> {3}")
  @MethodSource("table")
  void badInputGetsAClearJsonErrorNeverA500(HttpMethod m, String uri, String body, int status, String code,
      String field) {
    HttpResponse<Buffer> r = body == null ? s.send(m, uri) : s.send(m, uri, body);
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(status);
    assertThat(r.getHeader("content-type")).startsWith("application/json");
    JsonObject err = r.bodyAsJsonObject().getJsonObject("error");
    assertThat(err.getString("code")).isEqualTo(code);
    assertThat(err.getString("message")).isNotBlank();
    assertThat(err.getString("field")).isEqualTo(field);
  }

  @Test
  void aTenMegabyteBodyIsRefusedWith413BeforeItIsReadAndTheConnectionClosed() throws Exception {
    try (Socket sock = new Socket("127.0.0.1", s.port)) {
      sock.setSoTimeout(10_000);
      OutputStream out = sock.getOutputStream();
      out.write(("POST /v1/timers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          + "Content-Length: " + (10 * 1024 * 1024) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write("{\"payload\":\"".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      // Only the headers and a few bytes were sent: the answer must come without the rest of the body.
      String head = readResponse(sock.getInputStream());
      assertThat(head).startsWith("HTTP/1.1 413");
      assertThat(head).contains("\"code\":\"payload_too_large\"");
      validateRaw(POST, "/v1/timers", head);
      // and the server closed the connection instead of reading 10 MB: writing more fails or reads EOF
      assertThat(closedByServer(sock)).isTrue();
    }
    assertThat(s.send(GET, "/health").statusCode()).isEqualTo(200);
  }

  @Test
  void aChunkedBodyOverOneMebibyteIsRefusedWith413() {
    Buffer big = Buffer.buffer("{\"delayMs\":1,\"payload\":\"" + "y".repeat(1024 * 1024) + "\"}");
    HttpResponse<Buffer> r = s.checked(POST, "/v1/timers", TestVertx.await(s.request(POST, "/v1/timers")
        .putHeader("transfer-encoding", "chunked").putHeader("content-type", "application/json")
        .sendBuffer(big).recover(e -> io.vertx.core.Future.failedFuture(new AssertionError("no answer: " + e)))));
    assertThat(r.statusCode()).isEqualTo(413);
    assertThat(r.bodyAsJsonObject().getJsonObject("error").getString("code")).isEqualTo("payload_too_large");
  }

  /** Validates a raw HTTP/1.1 answer (status line, headers, a body not chunked) against the OpenAPI document. */
  private static void validateRaw(HttpMethod m, String uri, String raw) {
    int end = raw.indexOf("\r\n\r\n");
    String[] lines = raw.substring(0, end).split("\r\n");
    java.util.Map<String, java.util.List<String>> headers = new java.util.LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers.computeIfAbsent(lines[i].substring(0, colon).trim(), k -> new java.util.ArrayList<>())
          .add(lines[i].substring(colon + 1).trim());
    }
    OpenApiValidator.served().validate(m, uri, Integer.parseInt(lines[0].split(" ")[1]), headers,
        raw.substring(end + 4).getBytes(StandardCharsets.UTF_8));
  }

  private static String readResponse(InputStream in) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    byte[] buf = new byte[4096];
    long deadline = System.currentTimeMillis() + 10_000;
    while (System.currentTimeMillis() < deadline) {
      int n;
      try {
        n = in.read(buf);
      } catch (SocketException e) {
        break;
      }
      if (n < 0) {
        break;
      }
      b.write(buf, 0, n);
      String s = b.toString(StandardCharsets.UTF_8);
      int headerEnd = s.indexOf("\r\n\r\n");
      if (headerEnd >= 0 && s.indexOf('}', headerEnd) > 0 && s.trim().endsWith("}")) {
        return s;
      }
    }
    return b.toString(StandardCharsets.UTF_8);
  }

  private static boolean closedByServer(Socket sock) throws Exception {
    byte[] chunk = new byte[64 * 1024];
    try {
      for (int i = 0; i < 200; i++) {             // up to 12.5 MB: more than the declared body
        sock.getOutputStream().write(chunk);
      }
    } catch (SocketException e) {
      return true;
    }
    return sock.getInputStream().read() < 0;
  }
}
