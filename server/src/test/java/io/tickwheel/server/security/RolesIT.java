package io.tickwheel.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.tickwheel.server.testing.OpenApiValidator;
import io.tickwheel.testkit.ServerProcess;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Roles against the jar with {@code --tokens-file} (and {@code --token}, an admin token): every operation of the
 * served OpenAPI document called with a token of each role, the allowed set checked against the table the README
 * gives (independent of the server's code), every answer validated against the document; WebSocket commands of a
 * {@code read} token answered 403 on an open connection; the file re-read: a removed token refused and its streams
 * closed, an admin token made read closes its call socket at its next call, a bad line logged and the tokens before
 * kept.
 */
class RolesIT {

  static final String READ = "read-token-1";
  static final String WRITE = "write-token-1";
  static final String ADMIN = "admin-token-1";
  static final String FLAG = "flag-admin-token";
  static final String GONE = "write-token-to-remove";
  static final String DEMOTED = "write-token-to-demote";
  static final String NODE = "admin-token-to-demote";
  static final String TOKENS = "# roles test\nread " + READ + "\nwrite " + WRITE + "   # a service\nadmin " + ADMIN
      + "\nwrite " + GONE + "\nwrite " + DEMOTED + "\nadmin " + NODE + "\n";

  /** The README's table: what only admin may call; every other GET is read's; every other call write's. */
  static final Set<String> ADMIN_ONLY = Set.of("GET /v1/webhook-secret", "GET /v1/export", "POST /v1/import");

  @TempDir
  static Path tmp;
  static Path tokensFile;
  static ServerProcess server;
  static Vertx vertx;
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  /** The WebSocket clients a test opened, closed after it: Vert.x shuts down a client that is garbage collected. */
  final List<WebSocketClient> wsClients = new java.util.ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    tokensFile = Files.writeString(tmp.resolve("tokens"), TOKENS);
    server = ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
        .args("--port", "0", "--store", "memory", "--tokens-file", tokensFile.toString(), "--token", FLAG)
        .logs(tmp, "roles").startAndAwaitListening(Duration.ofSeconds(60));
    vertx = Vertx.vertx();
  }

  @org.junit.jupiter.api.AfterEach
  void closeWebSocketClients() throws Exception {
    for (WebSocketClient c : wsClients) {
      c.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  /** A WebSocket client kept until the test ends. */
  WebSocketClient wsClient() {
    WebSocketClient c = vertx.createWebSocketClient();
    wsClients.add(c);
    return c;
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    if (vertx != null) {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  static boolean allowed(String role, String method, String path) {
    String call = method + " " + path;
    return switch (role) {
      case "admin" -> true;
      case "write" -> !ADMIN_ONLY.contains(call);
      case "read" -> method.equals("GET") && !ADMIN_ONLY.contains(call);
      default -> throw new IllegalArgumentException(role);
    };
  }

  record Answer(int status, Map<String, List<String>> headers, byte[] body) {}

  Answer send(String method, String uri, String token, String body) throws Exception {
    return send(method, uri, token, body, Map.of());
  }

  Answer send(String method, String uri, String token, String body, Map<String, String> headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.baseUrl() + uri)).timeout(Duration.ofSeconds(10))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(b::header);
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    // streams answer with headers and go on: read what came with them, then hang up
    HttpResponse<InputStream> r = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
    byte[] bytes;
    try (InputStream in = r.body()) {
      String type = r.headers().firstValue("Content-Type").orElse("");
      bytes = type.startsWith("text/event-stream") ? new byte[0] : in.readAllBytes();
    }
    return new Answer(r.statusCode(), r.headers().map(), bytes);
  }

  @Test
  void everyOperationOfTheOpenApiDocumentAnswersEachRoleAsTheTableSays() throws Exception {
    // a timer a refused call must leave as it is
    assertThat(send("PUT", "/v1/timers/kept", ADMIN, "{\"delayMs\":600000}").status()).isEqualTo(201);
    String doc = new String(send("GET", "/openapi.yaml", null, null).body(), StandardCharsets.UTF_8);
    OpenAPI api = new OpenAPIV3Parser().readContents(doc).getOpenAPI();
    OpenApiValidator validator = new OpenApiValidator(doc);
    Set<String> walked = new TreeSet<>();
    List<String> wrong = new ArrayList<>();
    for (String role : List.of("read", "write", "admin")) {
      String token = switch (role) {
        case "read" -> READ;
        case "write" -> WRITE;
        default -> ADMIN;
      };
      for (Map.Entry<String, PathItem> e : api.getPaths().entrySet()) {
        String path = e.getKey();
        for (Map.Entry<PathItem.HttpMethod, Operation> op : e.getValue().readOperationsMap().entrySet()) {
          if (op.getValue().getSecurity() != null && op.getValue().getSecurity().isEmpty()) {
            continue;      // open: /health, /metrics, the document, the console
          }
          String method = op.getKey().name();
          String uri = path.replace("{id}", "walk-" + role).replace("{topic}", "walk-topic");
          String body = op.getValue().getRequestBody() == null ? null : "{}";
          Answer a = send(method, uri, token, body);
          walked.add(method + " " + path);
          boolean stream = a.headers().getOrDefault("content-type", List.of("")).get(0).startsWith("text/event-stream");
          if (!stream) {      // a stream's body never ends: only its status and headers were read
            validator.validate(io.vertx.core.http.HttpMethod.valueOf(method), uri, a.status(), a.headers(), a.body());
          }
          boolean ok = allowed(role, method, path);
          String code = a.status() == 403 ? new JsonObject(new String(a.body(), StandardCharsets.UTF_8))
              .getJsonObject("error").getString("code") : null;
          if (ok && (a.status() == 401 || a.status() == 403)) {
            wrong.add(role + " " + method + " " + uri + ": refused " + a.status() + " but the table allows it");
          } else if (!ok && !(a.status() == 403 && "permission_denied".equals(code))) {
            wrong.add(role + " " + method + " " + uri + ": " + a.status() + " but the table refuses it (403)");
          }
        }
      }
      if (role.equals("read")) {
        // nothing a refused call touched changed
        assertThat(send("GET", "/v1/timers/kept", READ, null).status()).isEqualTo(200);
        assertThat(new String(send("GET", "/v1/topics", READ, null).body(), StandardCharsets.UTF_8))
            .doesNotContain("walk-topic");
      }
    }
    assertThat(wrong).isEmpty();
    assertThat(walked).contains("GET /v1/timers", "POST /v1/timers", "DELETE /v1/timers/{id}",
        "GET /v1/webhook-secret", "POST /v1/deliveries/{id}/retry", "GET /v1/me");
    // other spellings of an admin path, or of the internal route, get no further with a lesser role
    for (String spelling : List.of("/v1/webhook%2Dsecret", "/v1//webhook-secret", "/v1/webhook-secret/",
        "/v1/./webhook-secret", "/v1/timers/../webhook-secret", "/v1/%77ebhook-secret")) {
      Answer a = send("GET", spelling, WRITE, null);
      assertThat(a.status()).as("GET %s with a write token: %s", spelling, new String(a.body(), StandardCharsets.UTF_8))
          .isIn(403, 404);
      assertThat(new String(a.body(), StandardCharsets.UTF_8)).doesNotContain("whsec_");
    }
    Answer internal = send("POST", "/internal/v1/calls", WRITE, "{}", Map.of("X-Tickwheel-Node", "not-a-node"));
    assertThat(internal.status()).isEqualTo(403);
    assertThat(new String(internal.body(), StandardCharsets.UTF_8)).contains("needs a token of role admin");
    for (String spelling : List.of("/v1/../internal/v1/calls", "/internal//v1/calls", "/internal/v1/calls/")) {
      // refused before any call is decoded: by the route's own checks (400, 403) or it is not the route (404)
      assertThat(send("POST", spelling, WRITE, "{}", Map.of("X-Tickwheel-Node", "not-a-node")).status())
          .as("POST %s with a write token", spelling).isIn(400, 403, 404);
    }
    // no token, or one the server does not know: 401 whatever the route
    assertThat(send("GET", "/v1/timers", null, null).status()).isEqualTo(401);
    assertThat(send("GET", "/v1/timers", "not-a-token", null).status()).isEqualTo(401);
    assertThat(send("GET", "/health", null, null).status()).isEqualTo(200);
    assertThat(send("GET", "/metrics", null, null).status()).isEqualTo(200);
  }

  @Test
  void theTokenFlagIsAnAdminTokenAndEachTokenIsToldItsRole() throws Exception {
    assertThat(send("GET", "/v1/webhook-secret", FLAG, null).status()).isEqualTo(200);
    for (Map.Entry<String, String> e : Map.of(READ, "read", WRITE, "write", ADMIN, "admin", FLAG, "admin").entrySet()) {
      JsonObject me = new JsonObject(new String(send("GET", "/v1/me", e.getKey(), null).body(), StandardCharsets.UTF_8));
      assertThat(me.getString("role")).isEqualTo(e.getValue());
      assertThat(me.getBoolean("tokensRequired")).isTrue();
    }
    Answer denied = send("DELETE", "/v1/timers/x", READ, null);
    assertThat(denied.status()).isEqualTo(403);
    String msg = new String(denied.body(), StandardCharsets.UTF_8);
    assertThat(msg).contains("permission_denied").contains("write").doesNotContain(READ);
  }

  WebSocket ws(String token, List<JsonObject> messages, List<Short> closed) throws Exception {
    WebSocket ws = wsClient().connect(new WebSocketConnectOptions().setAbsoluteURI(server.baseUrl()
            .replace("http://", "ws://") + "/v1/ws?access_token=" + token))
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    ws.textMessageHandler(t -> messages.add(new JsonObject(t)));
    ws.closeHandler(v -> closed.add(ws.closeStatusCode()));
    return ws;
  }

  static boolean has(List<JsonObject> messages, String type, String ref) {
    return messages.stream().anyMatch(m -> type.equals(m.getString("type")) && (ref == null || ref.equals(m.getString("ref"))));
  }

  @Test
  void aReadTokenSubscribesButItsWebSocketCommandsGet403AndTheConnectionStaysOpen() throws Exception {
    List<JsonObject> got = new CopyOnWriteArrayList<>();
    List<Short> closed = new CopyOnWriteArrayList<>();
    WebSocket reader = ws(READ, got, closed);
    reader.writeTextMessage("{\"op\":\"subscribe\",\"topics\":[\"ws-roles\"]}");
    reader.writeTextMessage("{\"op\":\"schedule\",\"ref\":\"r1\",\"timer\":{\"id\":\"by-reader\",\"delayMs\":10}}");
    reader.writeTextMessage("{\"op\":\"cancel\",\"ref\":\"r2\",\"id\":\"kept-ws\"}");
    reader.writeTextMessage("{\"op\":\"ping\"}");
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> has(got, "subscribed", null)
        && has(got, "result", "r1") && has(got, "result", "r2") && has(got, "pong", null));
    for (JsonObject r : got) {
      if ("result".equals(r.getString("type"))) {
        assertThat(r.getInteger("status")).isEqualTo(403);
        assertThat(r.getJsonObject("error").getString("code")).isEqualTo("permission_denied");
      }
    }
    assertThat(send("GET", "/v1/timers/by-reader", ADMIN, null).status()).isEqualTo(404);

    List<JsonObject> wrote = new CopyOnWriteArrayList<>();
    WebSocket writer = ws(WRITE, wrote, new CopyOnWriteArrayList<>());
    writer.writeTextMessage("{\"op\":\"schedule\",\"ref\":\"w1\",\"timer\":{\"id\":\"by-writer\",\"topic\":\"ws-roles\","
        + "\"delayMs\":10}}");
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> has(wrote, "result", "w1"));
    assertThat(wrote.stream().filter(m -> "w1".equals(m.getString("ref"))).findFirst().orElseThrow()
        .getInteger("status")).isEqualTo(201);
    // the reader's subscription gets the writer's firing: its connection is still open
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
        got.stream().anyMatch(m -> "by-writer".equals(m.getString("id"))));
    assertThat(closed).isEmpty();
    reader.close();
    writer.close();
  }

  @Test
  void theFileIsReReadARemovedTokenStopsAndItsStreamsCloseABadLineKeepsTheTokensBefore() throws Exception {
    List<JsonObject> got = new CopyOnWriteArrayList<>();
    List<Short> closed = new CopyOnWriteArrayList<>();
    WebSocket doomed = ws(GONE, got, closed);
    doomed.writeTextMessage("{\"op\":\"subscribe\",\"topics\":[\"*\"]}");
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> has(got, "subscribed", null));
    // an event stream of the same token, read until it ends
    HttpResponse<InputStream> sse = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl()
        + "/v1/events?access_token=" + GONE)).build(), HttpResponse.BodyHandlers.ofInputStream());
    assertThat(sse.statusCode()).isEqualTo(200);
    CompletableFuture<Boolean> sseEnded = CompletableFuture.supplyAsync(() -> {
      try (InputStream in = sse.body()) {
        in.transferTo(java.io.OutputStream.nullOutputStream());
        return true;
      } catch (java.io.IOException e) {
        return true;      // reset: ended as well
      }
    });
    // one that stays: the reader's stream
    List<JsonObject> kept = new CopyOnWriteArrayList<>();
    List<Short> keptClosed = new CopyOnWriteArrayList<>();
    WebSocket stays = ws(READ, kept, keptClosed);
    // and a write token about to become read: its open connection's next command is refused
    List<JsonObject> demoted = new CopyOnWriteArrayList<>();
    List<Short> demotedClosed = new CopyOnWriteArrayList<>();
    WebSocket demotedWs = ws(DEMOTED, demoted, demotedClosed);
    demotedWs.writeTextMessage("{\"op\":\"schedule\",\"ref\":\"d1\",\"timer\":{\"id\":\"by-demoted-1\",\"delayMs\":600000}}");
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> has(demoted, "result", "d1"));

    // and a node's call socket (the internal route) opened with an admin token about to become read
    List<io.vertx.core.buffer.Buffer> answers = new CopyOnWriteArrayList<>();
    List<String> nodeClosed = new CopyOnWriteArrayList<>();
    WebSocket calls = wsClient().connect(new WebSocketConnectOptions()
            .setAbsoluteURI(server.baseUrl().replace("http://", "ws://") + "/internal/v1/calls")
            .setAllowOriginHeader(false).putHeader("X-Tickwheel-Node", "n1").putHeader("Authorization", "Bearer " + NODE))
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    calls.binaryMessageHandler(answers::add);
    calls.closeHandler(v -> nodeClosed.add(calls.closeStatusCode() + " " + calls.closeReason()));
    io.vertx.core.buffer.Buffer call = io.vertx.core.buffer.Buffer.buffer().appendLong(1)
        .appendString("{\"call\":\"get\",\"id\":\"by-node\"}");
    calls.writeBinaryMessage(call);
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> answers.size() == 1);
    assertThat(answers.get(0).getLong(0)).isEqualTo(1);
    assertThat(answers.get(0).getUnsignedShort(8)).as("answered as a POST would be").isEqualTo(200);

    Path next = Files.writeString(tmp.resolve("tokens.next"), TOKENS.replace("write " + GONE + "\n", "")
        .replace("write " + DEMOTED, "read " + DEMOTED).replace("admin " + NODE, "read " + NODE));
    io.tickwheel.testkit.TestCertificates.replace(next, tokensFile);
    Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> closed.contains((short) 1008));
    assertThat(sseEnded.get(15, TimeUnit.SECONDS)).isTrue();
    assertThat(send("GET", "/v1/timers", GONE, null).status()).isEqualTo(401);
    assertThat(send("GET", "/v1/timers", READ, null).status()).isEqualTo(200);
    stays.writeTextMessage("{\"op\":\"ping\"}");
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> has(kept, "pong", null));
    assertThat(keptClosed).isEmpty();
    assertThat(new JsonObject(new String(send("GET", "/v1/me", DEMOTED, null).body(), StandardCharsets.UTF_8))
        .getString("role")).isEqualTo("read");
    demotedWs.writeTextMessage("{\"op\":\"schedule\",\"ref\":\"d2\",\"timer\":{\"id\":\"by-demoted-2\",\"delayMs\":600000}}");
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> has(demoted, "result", "d2"));
    assertThat(demoted.stream().filter(m -> "d1".equals(m.getString("ref"))).findFirst().orElseThrow()
        .getInteger("status")).isEqualTo(201);
    assertThat(demoted.stream().filter(m -> "d2".equals(m.getString("ref"))).findFirst().orElseThrow()
        .getInteger("status")).isEqualTo(403);
    assertThat(demotedClosed).as("a demoted token's connection stays open").isEmpty();
    assertThat(send("GET", "/v1/timers/by-demoted-2", ADMIN, null).status()).isEqualTo(404);
    demotedWs.close();
    // the demoted admin token's call socket takes no more calls: closed 1008 at its next one
    Awaitility.await().atMost(Duration.ofSeconds(10))
        .until(() -> new JsonObject(new String(send("GET", "/v1/me", NODE, null).body(), StandardCharsets.UTF_8))
            .getString("role").equals("read"));
    calls.writeBinaryMessage(call);
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !nodeClosed.isEmpty());
    assertThat(nodeClosed).containsExactly("1008 the token is no longer an admin token");
    assertThat(answers).hasSize(1);
    assertThat(server.stderr()).contains("1 removed, their streams closed").doesNotContain(GONE).doesNotContain(READ);

    // a bad line: logged with its number, the tokens before kept (the read token still works, a new one does not)
    Path bad = Files.writeString(tmp.resolve("tokens.bad"), "read " + READ + "\nwrite new-token\nsuperuser x\n");
    io.tickwheel.testkit.TestCertificates.replace(bad, tokensFile);
    Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> server.stderr().contains("line 3: unknown role"));
    assertThat(server.stderr()).contains("keeping the tokens loaded before");
    assertThat(send("GET", "/v1/timers", READ, null).status()).isEqualTo(200);
    assertThat(send("GET", "/v1/timers", "new-token", null).status()).isEqualTo(401);
    assertThat(send("GET", "/v1/timers", WRITE, null).status()).isEqualTo(200);
    assertThat(send("GET", "/v1/timers", FLAG, null).status()).isEqualTo(200);
    stays.close();

    // fixed: the new token works
    Path fixed = Files.writeString(tmp.resolve("tokens.fixed"), TOKENS.replace("write " + GONE + "\n", "")
        + "write new-token\n");
    io.tickwheel.testkit.TestCertificates.replace(fixed, tokensFile);
    Awaitility.await().atMost(Duration.ofSeconds(15))
        .until(() -> send("GET", "/v1/timers", "new-token", null).status() == 200);
  }

  @Test
  void aTokensFileWithABadLineExitsTwoWithOneLineNamingTheLine() throws Exception {
    Path bad = Files.writeString(tmp.resolve("bad-at-start"), "read fine\n\nwrite\n");
    try (ServerProcess p = ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .args("--port", "0", "--store", "memory", "--tokens-file", bad.toString()).logs(tmp, "bad-tokens").start()) {
      assertThat(p.waitForExit(Duration.ofSeconds(60))).isTrue();
      assertThat(p.exitValue()).as(p.describe()).isEqualTo(2);
      assertThat(p.stderr().strip().lines()).singleElement().asString()
          .startsWith("tickwheel: flag --tokens-file '" + bad + "' line 3: expected ROLE SECRET");
    }
  }
}
