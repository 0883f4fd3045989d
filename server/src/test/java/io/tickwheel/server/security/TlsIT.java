package io.tickwheel.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.testkit.ServerProcess;
import io.tickwheel.testkit.TestCertificates;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemTrustOptions;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar with {@code --tls-cert}/{@code --tls-key}: HTTPS and WSS only, checked by real clients that verify the
 * certificate against the CA the test made (curl {@code --cacert}, the JDK's HTTP client and TLS socket, Vert.x's
 * WebSocket client); a plain HTTP request gets no HTTP answer; a renewed certificate is served to new connections
 * within the reload period while an open WebSocket stays up; a renewal that does not check out is logged and the
 * certificate served before is kept.
 */
public class TlsIT {

  static final String TOKEN = "tls-it-token";

  @TempDir
  static Path tmp;
  static TestCertificates certs;
  static Path liveCert;
  static Path liveKey;
  static ServerProcess server;
  static Vertx vertx;
  static SSLContext trusting;

  @BeforeAll
  static void start() throws Exception {
    certs = TestCertificates.create(tmp.resolve("certs"));
    TestCertificates.Pair first = certs.issue("first");
    Path live = Files.createDirectories(tmp.resolve("live"));
    liveCert = live.resolve("server.crt");
    liveKey = live.resolve("server.key");
    Files.copy(first.cert(), liveCert);
    Files.copy(first.key(), liveKey);
    server = ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
        .args("--port", "0", "--store", "memory", "--token", TOKEN,
            "--tls-cert", liveCert.toString(), "--tls-key", liveKey.toString())
        .logs(tmp, "tls").startAndAwaitListening(Duration.ofSeconds(60));
    vertx = Vertx.vertx();
    trusting = sslContext(certs.ca());
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

  /** A TLS context trusting only the certificates of {@code ca} (PEM). */
  public static SSLContext sslContext(Path ca) throws Exception {
    KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
    ks.load(null, null);
    try (InputStream in = Files.newInputStream(ca)) {
      ks.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(ks);
    SSLContext c = SSLContext.getInstance("TLS");
    c.init(null, tmf.getTrustManagers(), null);
    return c;
  }

  /** The common name of the certificate a new, verified TLS connection gets. */
  static String servedName() throws Exception {
    try (SSLSocket s = (SSLSocket) trusting.getSocketFactory().createSocket()) {
      s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5000);
      s.setSoTimeout(5000);
      SSLParameters p = s.getSSLParameters();
      p.setEndpointIdentificationAlgorithm("HTTPS");
      s.setSSLParameters(p);
      s.startHandshake();
      X509Certificate c = (X509Certificate) s.getSession().getPeerCertificates()[0];
      return c.getSubjectX500Principal().getName();
    }
  }

  static List<String> curl(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10", "-o", "-", "-w", "\n%{http_code}"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return List.of(String.valueOf(p.exitValue()), out);
  }

  HttpResponse<String> https(String method, String path, String body) throws Exception {
    HttpClient c = HttpClient.newBuilder().sslContext(trusting).connectTimeout(Duration.ofSeconds(5)).build();
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.baseUrl() + path)).timeout(Duration.ofSeconds(10))
        .header("Authorization", "Bearer " + TOKEN)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    return c.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void curlVerifiesTheCertificateAndAFailedHandshakeChangesNothing() throws Exception {
    assertThat(server.baseUrl()).matches("https://127\\.0\\.0\\.1:\\d+");
    String auth = "Authorization: Bearer " + TOKEN;
    List<String> ok = curl("--cacert", certs.ca().toString(), "-H", auth, "-H", "Content-Type: application/json",
        "-X", "POST", "-d", "{\"id\":\"curl-1\",\"delayMs\":600000}", server.baseUrl() + "/v1/timers");
    assertThat(ok.get(0)).as(ok.get(1)).isEqualTo("0");
    assertThat(ok.get(1)).endsWith("\n201").contains("\"id\":\"curl-1\"");
    // by name too: the certificate names localhost
    List<String> byName = curl("--cacert", certs.ca().toString(), "-H", auth,
        "https://localhost:" + server.port() + "/v1/timers/curl-1");
    assertThat(byName.get(1)).endsWith("\n200");

    // without the CA, curl refuses the certificate (60: peer certificate cannot be authenticated) and sends nothing
    List<String> untrusted = curl("-H", auth, "-H", "Content-Type: application/json", "-X", "POST",
        "-d", "{\"id\":\"curl-2\",\"delayMs\":600000}", server.baseUrl() + "/v1/timers");
    assertThat(untrusted.get(0)).isEqualTo("60");
    assertThat(https("GET", "/v1/timers/curl-2", null).statusCode()).isEqualTo(404);
    assertThat(https("GET", "/v1/timers/curl-1", null).statusCode()).isEqualTo(200);
  }

  @Test
  void aPlainHttpRequestGetsNoHttpAnswer() throws Exception {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5000);
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      byte[] got = s.getInputStream().readNBytes(5);
      // a TLS alert record (0x15) or nothing before the close; never an HTTP status line
      assertThat(new String(got, StandardCharsets.ISO_8859_1)).doesNotStartWith("HTTP");
    }
    List<String> plain = curl("http://127.0.0.1:" + server.port() + "/health");
    assertThat(plain.get(0)).isNotEqualTo("0");
  }

  @Test
  void aRenewedCertificateIsServedToNewConnectionsWhileAnOpenWebSocketStaysUp() throws Exception {
    assertThat(servedName()).isEqualTo("CN=first");
    WebSocketClient wsc = vertx.createWebSocketClient(new WebSocketClientOptions().setSsl(true).setVerifyHost(true)
        .setTrustOptions(new PemTrustOptions().addCertPath(certs.ca().toString())));
    List<JsonObject> messages = new CopyOnWriteArrayList<>();
    List<Short> closed = new CopyOnWriteArrayList<>();
    WebSocket ws = wsc.connect(new WebSocketConnectOptions()
            .setAbsoluteURI("wss://127.0.0.1:" + server.port() + "/v1/ws").addHeader("Authorization", "Bearer " + TOKEN))
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    ws.textMessageHandler(t -> messages.add(new JsonObject(t)));
    ws.closeHandler(v -> closed.add(ws.closeStatusCode()));
    ws.writeTextMessage("{\"op\":\"subscribe\",\"topics\":[\"renew\"]}");
    Awaitility.await().atMost(Duration.ofSeconds(10))
        .until(() -> messages.stream().anyMatch(m -> "subscribed".equals(m.getString("type"))));

    // renewal as tools do it: the key, then the certificate, each replaced by a rename; in between the pair does not
    // match, which the server must not install
    TestCertificates.Pair second = certs.issue("second");
    TestCertificates.replace(second.key(), liveKey);
    TestCertificates.replace(second.cert(), liveCert);
    Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
        .until(() -> servedName().equals("CN=second"));
    assertThat(server.stderr()).contains("serving the certificate re-read from --tls-cert");

    // the WebSocket opened with the old certificate is still up: it answers and gets firings
    ws.writeTextMessage("{\"op\":\"ping\"}");
    assertThat(https("POST", "/v1/timers", "{\"id\":\"after-renewal\",\"topic\":\"renew\",\"delayMs\":20}")
        .statusCode()).isEqualTo(201);
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
        messages.stream().anyMatch(m -> "pong".equals(m.getString("type")))
            && messages.stream().anyMatch(m -> "after-renewal".equals(m.getString("id"))));
    assertThat(closed).isEmpty();

    // a change that does not parse: one log line, the certificate served before is kept
    Files.writeString(liveCert, "-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n");
    Awaitility.await().atMost(Duration.ofSeconds(15))
        .until(() -> server.stderr().contains("still serving the certificate loaded before"));
    assertThat(server.stderr()).contains("--tls-cert " + liveCert);
    assertThat(servedName()).isEqualTo("CN=second");
    assertThat(https("GET", "/v1/timers/curl-1-none", null).statusCode()).isEqualTo(404);
    ws.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    wsc.close();
  }

  @Test
  void theJdkClientWithoutTheCaRefusesTheServer() {
    HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    assertThatThrownBy(() -> plain.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/health")).build(),
        HttpResponse.BodyHandlers.ofString())).isInstanceOf(javax.net.ssl.SSLHandshakeException.class);
  }

  @Test
  void aKeyThatIsNotTheCertificatesOrACertificateWithoutKeyExitsTwoWithOneLineNamingTheFlag() throws Exception {
    TestCertificates.Pair a = certs.issue("a");
    TestCertificates.Pair b = certs.issue("b");
    try (ServerProcess p = ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .args("--port", "0", "--store", "memory", "--tls-cert", a.cert().toString(), "--tls-key", b.key().toString())
        .logs(tmp, "mismatch").start()) {
      assertThat(p.waitForExit(Duration.ofSeconds(60))).isTrue();
      assertThat(p.exitValue()).as(p.describe()).isEqualTo(2);
      assertThat(p.stderr().strip().lines()).singleElement().asString()
          .startsWith("tickwheel: flag --tls-key '" + b.key() + "' is not the key of the certificate");
    }
    try (ServerProcess p = ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .args("--port", "0", "--store", "memory", "--tls-cert", a.cert().toString())
        .logs(tmp, "no-key").start()) {
      assertThat(p.waitForExit(Duration.ofSeconds(60))).isTrue();
      assertThat(p.exitValue()).as(p.describe()).isEqualTo(2);
      assertThat(p.stderr().strip().lines()).singleElement().asString().startsWith("tickwheel: --tls-key is missing");
    }
  }
}
