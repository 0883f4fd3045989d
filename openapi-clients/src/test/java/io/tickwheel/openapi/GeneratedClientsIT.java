package io.tickwheel.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tickwheel.openapi.generated.ApiClient;
import io.tickwheel.openapi.generated.ApiException;
import io.tickwheel.openapi.generated.api.TimersApi;
import io.tickwheel.openapi.generated.model.CreateTimers200ResponseResultsInner;
import io.tickwheel.openapi.generated.model.CreateTimersRequest;
import io.tickwheel.openapi.generated.model.ErrorDetail;
import io.tickwheel.openapi.generated.model.ListTimers200Response;
import io.tickwheel.openapi.generated.model.Timer;
import io.tickwheel.openapi.generated.model.TimerInput;
import io.tickwheel.openapi.generated.model.TimerInputAt;
import io.tickwheel.openapi.generated.model.TouchTimerRequest;
import io.tickwheel.testkit.ServerProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients generated from the OpenAPI document the server serves, driven against the real jar
 * ({@code server/target/tickwheel.jar}, RocksDB in a temporary directory): the Java client openapi-generator
 * ({@code java}, library {@code native}) made in generate-test-sources, and the TypeScript calls (openapi-fetch typed
 * by openapi-typescript's default output) that tsc compiled to {@code target/ts}, run with {@code node --test}.
 */
class GeneratedClientsIT {

  private static final List<String> JVM = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

  @TempDir
  static Path tmp;
  private static ServerProcess server;
  private static TimersApi timers;
  private static ApiClient api;

  @BeforeAll
  static void start() {
    server = ServerProcess.fromJar(ServerProcess.jarFromProperty()).jvmArgs(JVM)
        .args("--port", "0", "--host", "127.0.0.1", "--data-dir", tmp.resolve("data").toString()).logs(tmp, "server")
        .startAndAwaitListening(Duration.ofSeconds(120));
    api = new ApiClient();
    api.updateBaseUri(server.baseUrl());
    api.setReadTimeout(Duration.ofSeconds(30));
    timers = new TimersApi(api);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static Path property(String name) {
    String v = System.getProperty(name);
    assertThat(v).as("system property %s (set by the module's failsafe configuration)", name).isNotBlank();
    return Path.of(v);
  }

  @Test
  void theGeneratorsReadTheDocumentTheServerServes() throws Exception {
    HttpResponse<byte[]> served = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(server.baseUrl() + "/openapi.yaml")).timeout(Duration.ofSeconds(30)).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(served.statusCode()).isEqualTo(200);
    assertThat(served.body()).isEqualTo(Files.readAllBytes(property("openapi.document")));
  }

  @Test
  void theGeneratedJavaClientCreatesReadsTouchesListsPausesAndDeletes() throws Exception {
    long before = System.currentTimeMillis();
    // the shortest once timer, as a new user writes it: nothing but the fields it needs
    Timer once = timers.createTimer(new TimerInput().id("java-once").topic("gen").delayMs(600_000L)
        .payload(Map.of("invoice", 42)));
    assertThat(once.getId()).isEqualTo("java-once");
    assertThat(once.getKind()).isEqualTo(Timer.KindEnum.ONCE);
    assertThat(once.getNextDueAt()).isBetween(before + 600_000, System.currentTimeMillis() + 600_000);
    assertThat(once.getPayload()).isEqualTo(Map.of("invoice", 42));
    assertThat(once.getTimeZone()).isNull();

    // every default spelled out, as clients generated from documents with schema defaults send them: the same timer
    Timer explicit = timers.createTimer(new TimerInput().id("java-explicit").topic("default")
        .kind(TimerInput.KindEnum.ONCE).delayMs(600_000L).misfire(TimerInput.MisfireEnum.FIRE_ONCE).timeZone("UTC")
        .dstGap(TimerInput.DstGapEnum.AUTO).dstOverlap(TimerInput.DstOverlapEnum.AUTO).jitterMs(0L));
    assertThat(explicit.getKind()).isEqualTo(Timer.KindEnum.ONCE);
    assertThat(explicit.getTopic()).isEqualTo("default");
    assertThat(explicit.getTimeZone()).isNull();
    assertThat(explicit.getDstGap()).isNull();

    OffsetDateTime start = OffsetDateTime.now(ZoneOffset.UTC).plusHours(1);
    Timer rate = timers.createTimer(new TimerInput().id("java-rate").topic("gen")
        .kind(TimerInput.KindEnum.FIXED_RATE).periodMs(3_600_000L).at(new TimerInputAt(start))
        .misfire(TimerInput.MisfireEnum.SKIP));
    assertThat(rate.getKind()).isEqualTo(Timer.KindEnum.FIXED_RATE);
    assertThat(rate.getNextDueAt()).isEqualTo(start.toInstant().toEpochMilli());
    assertThat(rate.getUpcoming()).hasSize(5);

    Timer cron = timers.createTimer(new TimerInput().id("java-cron").topic("gen").kind(TimerInput.KindEnum.CRON)
        .cron("0 9 * * MON-FRI").timeZone("Europe/Paris").dstGap(TimerInput.DstGapEnum.SHIFT));
    assertThat(cron.getTimeZone()).isEqualTo("Europe/Paris");
    assertThat(cron.getDstGap()).isEqualTo(Timer.DstGapEnum.SHIFT);
    assertThat(cron.getDstOverlap()).isEqualTo(Timer.DstOverlapEnum.AUTO);
    Timer cronUtc = timers.putTimer("java-cron-utc", new TimerInput().topic("gen").kind(TimerInput.KindEnum.CRON)
        .cron("@daily"));
    assertThat(cronUtc.getTimeZone()).isEqualTo("UTC");

    assertThat(timers.getTimer("java-once").getNextDueAt()).isEqualTo(once.getNextDueAt());
    Timer touched = timers.touchTimer("java-once", new TouchTimerRequest().delayMs(900_000L));
    assertThat(touched.getNextDueAt()).isGreaterThan(once.getNextDueAt());
    assertThat(timers.touchTimer("java-once", null).getNextDueAt()).isGreaterThanOrEqualTo(once.getNextDueAt());

    List<CreateTimers200ResponseResultsInner> batch = timers.createTimers(new CreateTimersRequest()
        .addTimersItem(new TimerInput().id("java-b1").topic("gen").delayMs(600_000L))
        .addTimersItem(new TimerInput().id("java-b2").topic("gen").delayMs(-1L))).getResults();
    assertThat(batch).extracting(CreateTimers200ResponseResultsInner::getStatus).containsExactly(201, 400);
    assertThat(batch.get(0).getTimer().getId()).isEqualTo("java-b1");
    assertThat(batch.get(1).getError().getField()).isEqualTo("delayMs");

    ListTimers200Response page = timers.listTimers("gen", 2, null);
    assertThat(page.getTimers()).hasSize(2);
    assertThat(page.getNext()).isNotNull();
    List<String> listed = new ArrayList<>(page.getTimers().stream().map(Timer::getId).toList());
    ListTimers200Response rest = timers.listTimers("gen", null, page.getNext());
    rest.getTimers().forEach(t -> listed.add(t.getId()));
    assertThat(rest.getNext()).isNull();
    assertThat(listed).containsExactlyInAnyOrder("java-once", "java-rate", "java-cron", "java-cron-utc", "java-b1");

    Timer paused = timers.pauseTimer("java-rate");
    assertThat(paused.getPaused()).isTrue();
    assertThat(timers.getTimer("java-rate").getPaused()).isTrue();

    timers.deleteTimer("java-b1");
    ApiException gone = catchThrowableOfType(ApiException.class, () -> timers.getTimer("java-b1"));
    assertThat(gone.getCode()).isEqualTo(404);
    assertThat(errorOf(gone).getCode()).isEqualTo(ErrorDetail.CodeEnum.NOT_FOUND);
  }

  @Test
  void aRefusalReachesTheJavaCallerWithItsField() throws Exception {
    ApiException bad = catchThrowableOfType(ApiException.class, () -> timers.createTimer(new TimerInput()
        .id("java-bad").kind(TimerInput.KindEnum.FIXED_RATE).periodMs(0L)));
    assertThat(bad.getCode()).isEqualTo(400);
    ErrorDetail error = errorOf(bad);
    assertThat(error.getCode()).isEqualTo(ErrorDetail.CodeEnum.INVALID_ARGUMENT);
    assertThat(error.getField()).isEqualTo("periodMs");
    assertThat(error.getMessage()).contains("periodMs").contains("was 0");

    // a field that does not apply to the kind is still refused when its value is not the default
    ApiException zone = catchThrowableOfType(ApiException.class, () -> timers.createTimer(new TimerInput()
        .id("java-zone").delayMs(1_000L).timeZone("Europe/Paris")));
    assertThat(zone.getCode()).isEqualTo(400);
    assertThat(errorOf(zone).getField()).isEqualTo("timeZone");
  }

  /** The error body, read with the generated model through the generated client's object mapper. */
  private static ErrorDetail errorOf(ApiException e) throws IOException {
    return api.getObjectMapper().readValue(e.getResponseBody(), io.tickwheel.openapi.generated.model.Error.class)
        .getError();
  }

  /**
   * {@code generated-client.test.ts} (3 tests: the calls) and {@code openapi-lint.test.ts} (1 test: Redocly's
   * recommended rules on the document), as tsc compiled them.
   */
  @Test
  void theTypeScriptCallsRunWithNodeAgainstTheJarAndTheDocumentPassesRedoclysLint() throws Exception {
    Path calls = property("ts.tests").resolve("generated-client.test.js");
    Path lint = property("ts.tests").resolve("openapi-lint.test.js");
    assertThat(List.of(calls, lint)).as("tsc's output (the module's exec execution 'tsc')")
        .allSatisfy(f -> assertThat(f).isRegularFile());
    Path out = tmp.resolve("node.out");
    ProcessBuilder pb = new ProcessBuilder("node", "--test", "--test-reporter=tap", calls.toString(), lint.toString())
        .redirectErrorStream(true).redirectOutput(out.toFile());
    pb.environment().put("TICKWHEEL_URL", server.baseUrl());
    pb.environment().put("OPENAPI_DOCUMENT", property("openapi.document").toString());
    Process node = pb.start();
    boolean exited = node.waitFor(120, TimeUnit.SECONDS);
    if (!exited) {
      node.destroyForcibly();
    }
    String output = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(exited).as("node --test within 120 s; output:%n%s", output).isTrue();
    assertThat(node.exitValue()).as("node --test exit code; output:%n%s", output).isZero();
    assertThat(output.lines().filter(l -> l.startsWith("# pass ") || l.startsWith("# fail ")).toList())
        .as("node's TAP summary in:%n%s", output).containsExactly("# pass 4", "# fail 0");
  }
}
