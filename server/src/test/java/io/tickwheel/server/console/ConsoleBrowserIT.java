package io.tickwheel.server.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.tickwheel.testkit.ServerProcess;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The browser console end to end: the shaded jar as a child process ({@code --store memory}, port 0: the console's
 * resources as packaged, served from the jar) and the real
 * Chromium from the system ({@code /usr/bin/chromium} with {@code /usr/bin/chromedriver}; never a browser or
 * driver downloaded by a tool), driven over WebDriver. Each test also reads the browser's console log and fails
 * on any error in it. Without Chromium the tests fail with a message saying what to install; they never skip.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserIT {

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final Path SCREENSHOT = Path.of("target", "console-screenshot.png");
  private static final Duration WAIT = Duration.ofSeconds(30);     // generous: CI machines can be busy
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  /** The page itself (not /console/, so a broken redirect is reported by its own test, not by every one). */
  private static final String CONSOLE = "/console/index.html";

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  /** The servers this class started (the main one, then the one with a token). */
  private final List<ServerProcess> servers = new ArrayList<>();
  private String base;
  /** The second server, started with {@code --token} for the token test. */
  private String securedBase;
  private Path userDataDir;
  private ChromeDriver driver;
  private final List<String> allowedErrors = new ArrayList<>();

  @BeforeAll
  void startServerAndBrowser() throws Exception {
    requireChromium();
    // both servers and the browser start side by side (each JVM takes seconds on a busy machine)
    ServerProcess main = launch("console", "--port", "0", "--store", "memory", "--webhook-allow-private");
    ServerProcess secured = launch("console-token", "--port", "0", "--store", "memory", "--token", "s3cret-console");
    driver = browser();
    base = main.awaitListening(START_TIMEOUT);
    securedBase = secured.awaitListening(START_TIMEOUT);
  }

  @AfterAll
  void stop() throws Exception {
    if (driver != null) {
      driver.quit();
    }
    for (ServerProcess s : servers) {
      s.stop(Duration.ofSeconds(10));
      s.close();
    }
    if (userDataDir != null) {
      try (Stream<Path> s = Files.walk(userDataDir)) {
        s.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
      }
    }
  }

  /** Every test leaves the browser's console free of errors (the token test excepted, see there). */
  @AfterEach
  void noBrowserErrors() {
    List<String> errors = new ArrayList<>();
    for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
      if (e.getLevel().intValue() >= Level.SEVERE.intValue()
          && allowedErrors.stream().noneMatch(a -> e.getMessage().contains(a))) {
        errors.add(e.getMessage());
      }
    }
    allowedErrors.clear();
    assertThat(errors).as("errors in the browser console").isEmpty();
  }

  @Test
  @Order(0)
  void rootRedirectsToTheConsoleWhichIsServedFromTheClasspath() throws Exception {
    HttpResponse<String> root = get("/");
    assertThat(root.statusCode()).isBetween(301, 308);
    assertThat(root.headers().firstValue("Location")).hasValue("/console/");
    HttpResponse<String> console = get("/console/");
    assertThat(console.statusCode()).as("GET /console/").isEqualTo(200);
    assertThat(console.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
    assertThat(console.body()).contains("<canvas id=\"wheel\"");
    assertThat(get("/console/vendor/chartjs/chart.umd.min.js").statusCode()).isEqualTo(200);
  }

  @Test
  @Order(1)
  void theConsoleDrawsTheLiveWheelFromThePushStreamWithoutExternalRequests() {
    driver.get(base + CONSOLE);
    new WebDriverWait(driver, WAIT).until(d -> "live".equals(attr("#conn", "data-state")));
    // the wheel: at least one ring rendered, animation frames running, real pixels on the canvas
    new WebDriverWait(driver, WAIT).until(d -> intAttr("#wheel", "data-levels") >= 1);
    int frames = waitForFrames(1);
    waitForFrames(frames + 1);
    double painted = ((Number) js(
        "const c = document.getElementById('wheel-base'); const g = c.getContext('2d');"
            + "const d = g.getImageData(0, 0, c.width, c.height).data; let n = 0;"
            + "for (let i = 3; i < d.length; i += 4 * 7) if (d[i] > 0) n++;"
            + "return n / (d.length / (4 * 7));")).doubleValue();
    assertThat(painted).as("share of the wheel canvas that is painted").isGreaterThan(0.3);
    assertThat(driver.findElements(By.cssSelector("#levels li"))).hasSize(intAttr("#wheel", "data-levels"));
    // counters come from the stream
    new WebDriverWait(driver, WAIT).until(d -> !text("#kpi-pending").equals("—") && !text("#server-clock").equals("—"));
    assertThat(text("#fact-stream")).isEqualTo("push");
    // nothing was fetched from anywhere but this server (no CDN, no web font)
    @SuppressWarnings("unchecked")
    List<String> resources = (List<String>) js(
        "return performance.getEntriesByType('resource').map(e => e.name).concat([location.href]);");
    assertThat(resources).isNotEmpty().allSatisfy(u -> assertThat(u).startsWith(base + "/"));
    assertThat(resources).anySatisfy(u -> assertThat(u).endsWith("/console/vendor/chartjs/chart.umd.min.js"));
    assertThat((Boolean) js("return typeof window.Chart === 'function';")).as("Chart.js loaded").isTrue();
  }

  @Test
  @Order(2)
  void aTimerCreatedThroughTheFormAppearsInTheTableAndItsFiringInTheFeed() throws Exception {
    openConsole();
    seedTimers();
    String id = "browser-once-" + System.nanoTime();
    // the seeded timers are due earlier, so narrow the table and the feed to this test's topics
    type("#q-topic", "console-test");
    type("#feed-topic", "console-test,heartbeats");
    driver.findElement(By.cssSelector("#feed-filter button[type='submit']")).click();
    WebElement form = driver.findElement(By.id("create-form"));
    type("#f-id", id);
    type("#f-topic", "console-test");
    new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("f-kind"))).selectByValue("once");
    type("#f-delayMs", "6000");
    type("#f-payload", "{\"from\":\"the browser test\"}");
    form.findElement(By.id("create-submit")).click();

    new WebDriverWait(driver, WAIT).until(d -> text("#create-status").contains("Scheduled " + id));
    By row = By.cssSelector("#timers-body tr[data-id='" + id + "']");
    new WebDriverWait(driver, WAIT).until(ExpectedConditions.presenceOfElementLocated(row));
    assertThat(driver.findElement(row).getText()).contains("console-test").contains("once");
    assertThat(driver.findElement(row).findElement(By.cssSelector(".due")).getText())
        .as("a live countdown").matches("in .+|due now|overdue .+");
    JsonObject stored = getJson("/v1/timers/" + id);
    assertThat(stored.getString("topic")).isEqualTo("console-test");
    assertThat(stored.getJsonObject("payload").getString("from")).isEqualTo("the browser test");

    // it fires: the feed shows it, the count says so, and the table drops the one-shot timer
    new WebDriverWait(driver, WAIT).until(d -> feedIds().contains(id));
    WebElement item = driver.findElements(By.cssSelector("#feed li")).stream()
        .filter(li -> li.getText().contains(id)).findFirst().orElseThrow();
    assertThat(item.getText()).contains("console-test").contains("the browser test");
    assertThat(text("#feed-count")).matches("[0-9,]+ received");
    new WebDriverWait(driver, WAIT).until(ExpectedConditions.numberOfElementsToBe(row, 0));

    // back to all topics for the screenshot: a full table, the heartbeats in the feed
    type("#q-topic", "");
    new WebDriverWait(driver, WAIT).until(d -> d.findElements(By.cssSelector("#timers-body tr")).size() >= 20);
    Files.createDirectories(SCREENSHOT.getParent());
    driver.manage().window().setSize(new Dimension(1440, 1440));
    js("document.activeElement.blur(); window.scrollTo(0, 0);");
    // for the picture only (nothing below depends on it): a little more history in the charts, the resize repainted
    Thread.sleep(1500);
    Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), SCREENSHOT, StandardCopyOption.REPLACE_EXISTING);
    driver.manage().window().setSize(new Dimension(1440, 1000));
    assertThat(Files.size(SCREENSHOT)).isGreaterThan(10_000);
  }

  @Test
  @Order(3)
  void cancellingFromTheTableNeedsAConfirmingSecondPressAndDeletesTheTimer() throws Exception {
    openConsole();
    String id = "browser-cancel-" + System.nanoTime();
    assertThat(post("/v1/timers", new JsonObject().put("id", id).put("topic", "console-test").put("delayMs", 600_000))
        .statusCode()).isEqualTo(201);
    type("#q-id", id);     // id-prefix search reloads the table
    By row = By.cssSelector("#timers-body tr[data-id='" + id + "']");
    WebElement tr = new WebDriverWait(driver, WAIT).until(ExpectedConditions.presenceOfElementLocated(row));
    WebElement cancel = tr.findElement(By.cssSelector("button[data-action='cancel']"));
    cancel.click();
    assertThat(cancel.getText()).isEqualTo("Confirm");
    assertThat(get("/v1/timers/" + id).statusCode()).as("one press does not cancel").isEqualTo(200);
    cancel.click();
    new WebDriverWait(driver, WAIT).until(ExpectedConditions.numberOfElementsToBe(row, 0));
    new WebDriverWait(driver, WAIT).until(d -> text("#timers-status").contains("Cancelled " + id));
    assertThat(get("/v1/timers/" + id).statusCode()).isEqualTo(404);
    type("#q-id", "");
  }

  @Test
  @Order(4)
  void touchRestartsTheCountdownOfATimer() throws Exception {
    openConsole();
    String id = "browser-touch-" + System.nanoTime();
    post("/v1/timers", new JsonObject().put("id", id).put("topic", "console-test").put("delayMs", 60_000));
    long before = getJson("/v1/timers/" + id).getLong("nextDueAt");
    // time is what the check below measures: a touch 300 ms or more after the create moves the due time that much
    Awaitility.await("300 ms since the create").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
        .until(() -> System.currentTimeMillis() >= before - 60_000 + 300);
    type("#q-id", id);
    By row = By.cssSelector("#timers-body tr[data-id='" + id + "']");
    WebElement tr = new WebDriverWait(driver, WAIT).until(ExpectedConditions.presenceOfElementLocated(row));
    tr.findElement(By.cssSelector("button[data-action='touch']")).click();
    new WebDriverWait(driver, WAIT).until(d -> text("#timers-status").contains("Touched " + id));
    assertThat(getJson("/v1/timers/" + id).getLong("nextDueAt")).isGreaterThanOrEqualTo(before + 300);
    type("#q-id", "");
  }

  @Test
  @Order(4)
  void pausingFromTheTableShowsAPausedBadgeAndResumingRemovesIt() throws Exception {
    openConsole();
    String id = "browser-pause-" + System.nanoTime();
    post("/v1/timers", new JsonObject().put("id", id).put("topic", "console-test").put("delayMs", 600_000));
    type("#q-id", id);
    By row = By.cssSelector("#timers-body tr[data-id='" + id + "']");
    WebElement tr = new WebDriverWait(driver, WAIT).until(ExpectedConditions.presenceOfElementLocated(row));
    assertThat(tr.findElement(By.cssSelector(".badge.paused")).isDisplayed()).isFalse();
    tr.findElement(By.cssSelector("button[data-action='pause']")).click();
    new WebDriverWait(driver, WAIT).until(d -> text("#timers-status").contains("Paused " + id));
    new WebDriverWait(driver, WAIT).until(d -> d.findElement(row).findElement(By.cssSelector(".badge.paused")).isDisplayed());
    assertThat(getJson("/v1/timers/" + id).getBoolean("paused")).isTrue();
    driver.findElement(row).findElement(By.cssSelector("button[data-action='resume']")).click();
    new WebDriverWait(driver, WAIT).until(d -> text("#timers-status").contains("Resumed " + id));
    new WebDriverWait(driver, WAIT).until(d -> !d.findElement(row).findElement(By.cssSelector(".badge.paused")).isDisplayed());
    assertThat(getJson("/v1/timers/" + id).containsKey("paused")).isFalse();
    type("#q-id", "");
  }

  @Test
  @Order(4)
  void theTopicsViewPausesAndResumesATopic() throws Exception {
    openConsole();
    String topic = "browser-topic-" + System.nanoTime();
    post("/v1/timers", new JsonObject().put("topic", topic).put("delayMs", 600_000));
    By row = By.cssSelector("#topics-body tr[data-topic='" + topic + "']");
    WebElement tr = new WebDriverWait(driver, WAIT).until(ExpectedConditions.presenceOfElementLocated(row));
    tr.findElement(By.cssSelector("button[data-action='pause']")).click();
    new WebDriverWait(driver, WAIT).until(d -> text("#topics-status").contains("Paused topic " + topic));
    new WebDriverWait(driver, WAIT).until(d -> d.findElement(row).findElement(By.cssSelector(".badge.paused")).isDisplayed());
    driver.findElement(row).findElement(By.cssSelector("button[data-action='resume']")).click();
    new WebDriverWait(driver, WAIT).until(d -> text("#topics-status").contains("Resumed topic " + topic));
    new WebDriverWait(driver, WAIT).until(d -> !d.findElement(row).findElement(By.cssSelector(".badge.paused")).isDisplayed());
  }

  @Test
  @Order(4)
  void theDeliveriesViewListsADeadDeliveryAndItsRetryButtonRequeuesIt() throws Exception {
    java.util.concurrent.atomic.AtomicInteger status = new java.util.concurrent.atomic.AtomicInteger(410);
    com.sun.net.httpserver.HttpServer receiver =
        com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext("/", ex -> {
      ex.getRequestBody().readAllBytes();
      ex.sendResponseHeaders(status.get(), -1);
      ex.close();
    });
    receiver.start();
    try {
      openConsole();
      String url = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
      JsonObject timer = new JsonObject(post("/v1/timers", new JsonObject().put("delayMs", 0)
          .put("callback", new JsonObject().put("url", url))).body());
      String timerId = timer.getString("id");
      By row = By.xpath("//tbody[@id='deliveries-body']/tr[td[2][text()='" + timerId + "']]");
      // the view re-renders its rows every few seconds: read and click the row as it is when each step runs
      String[] seen = new String[2];
      new WebDriverWait(driver, WAIT).ignoring(StaleElementReferenceException.class).until(d -> {
        WebElement tr = d.findElement(row);
        seen[0] = tr.getAttribute("data-id");
        seen[1] = tr.getText();
        return true;
      });
      String id = seen[0];
      assertThat(seen[1]).contains("HTTP 410").contains(url);
      status.set(200);
      new WebDriverWait(driver, WAIT).ignoring(StaleElementReferenceException.class).until(d -> {
        d.findElement(row).findElement(By.cssSelector("button[data-action='retry']")).click();
        return true;
      });
      new WebDriverWait(driver, WAIT).until(d -> text("#deliveries-status").contains("Re-queued " + id));
      new WebDriverWait(driver, WAIT).until(d -> {
        try {
          return "succeeded".equals(getJson("/v1/deliveries/" + id).getString("state"));
        } catch (Exception e) {
          return false;
        }
      });
      new WebDriverWait(driver, WAIT).until(ExpectedConditions.invisibilityOfElementLocated(row));
    } finally {
      receiver.stop(0);
    }
  }

  @Test
  @Order(4)
  void theNodesViewShowsTheServingNodeOwningEveryPartitionAndSaysWhoseWheelIsDrawn() {
    openConsole();
    By row = By.cssSelector("#nodes-body tr[data-node='local']");
    new WebDriverWait(driver, WAIT).until(ExpectedConditions.presenceOfElementLocated(row));
    // read by script, in one go: the view refreshes every 2 s
    assertThat((String) js("return document.querySelector(\"#nodes-body tr[data-node='local']\").innerText;"))
        .contains("this console").contains(base);
    assertThat(driver.findElements(By.cssSelector("#partition-map i[data-owner='local']"))).hasSize(1);
    assertThat(text("#wheel-node")).contains("the wheel of node local").contains("serving this console");
  }

  @Test
  @Order(5)
  void aRejectedFieldShowsTheServersMessageNextToThatField() {
    openConsole();
    // Chromium logs every 4xx answer to fetch() as a console error; these two are the point of the test
    allowedErrors.add("/v1/timers - Failed to load resource: the server responded with a status of 400");
    new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("f-kind"))).selectByValue("once");
    type("#f-id", "");
    type("#f-delayMs", "-5");
    driver.findElement(By.id("create-submit")).click();
    new WebDriverWait(driver, WAIT).until(d -> !text("#e-delayMs").isEmpty());
    assertThat(text("#e-delayMs")).contains("delayMs").contains("-5");
    assertThat(attr("#f-delayMs", "aria-invalid")).isEqualTo("true");
    assertThat(driver.switchTo().activeElement().getAttribute("id")).as("focus moves to the bad field").isEqualTo("f-delayMs");
    assertThat(text("#e-topic")).isEmpty();

    // a periodic kind without a period: the error lands next to periodMs
    new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("f-kind"))).selectByValue("fixed-rate");
    type("#f-delayMs", "1000");
    driver.findElement(By.id("create-submit")).click();
    new WebDriverWait(driver, WAIT).until(d -> !text("#e-periodMs").isEmpty());
    assertThat(text("#e-periodMs")).contains("periodMs");
    assertThat(text("#e-delayMs")).isEmpty();
    new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("f-kind"))).selectByValue("once");
  }

  @Test
  @Order(5)
  void theFormSchedulesACronTimerWithItsZoneDstPoliciesEndAndJitter() throws Exception {
    openConsole();
    allowedErrors.add("/v1/timers - Failed to load resource: the server responded with a status of 400");
    org.openqa.selenium.support.ui.Select kind = new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("f-kind")));
    kind.selectByValue("once");
    assertThat(driver.findElement(By.id("f-cron")).isEnabled()).as("cron fields off for once").isFalse();
    assertThat(driver.findElement(By.id("f-endAt")).isEnabled()).as("endAt is for periodic kinds").isFalse();
    kind.selectByValue("cron");
    assertThat(driver.findElement(By.id("f-periodMs")).isEnabled()).as("cron has no period").isFalse();
    for (String f : List.of("f-cron", "f-timeZone", "f-dstGap", "f-dstOverlap", "f-endAt", "f-misfire", "f-jitterMs")) {
      assertThat(driver.findElement(By.id(f)).isEnabled()).as(f).isTrue();
    }

    // an expression that never fires: the server's message lands next to the cron field
    type("#f-id", "");
    type("#f-delayMs", "0");
    type("#f-cron", "0 0 30 2 *");
    driver.findElement(By.id("create-submit")).click();
    new WebDriverWait(driver, WAIT).until(d -> !text("#e-cron").isEmpty());
    assertThat(text("#e-cron")).contains("cron").contains("0 0 30 2 *");
    assertThat(attr("#f-cron", "aria-invalid")).isEqualTo("true");

    String id = "browser-cron-" + System.nanoTime();
    type("#f-id", id);
    type("#f-topic", "console-test");
    type("#f-cron", "30 2 * * *");
    type("#f-timeZone", "America/New_York");
    new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("f-dstGap"))).selectByValue("skip");
    new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("f-dstOverlap"))).selectByValue("twice");
    new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("f-misfire"))).selectByValue("skip");
    js("const e = document.getElementById('f-endAt'); e.value = '2031-06-01T12:00';"
        + " e.dispatchEvent(new Event('input', { bubbles: true }));");
    type("#f-jitterMs", "5000");
    driver.findElement(By.id("create-submit")).click();
    new WebDriverWait(driver, WAIT).until(d -> text("#create-status").contains("Scheduled " + id));
    assertThat(text("#e-cron")).isEmpty();

    JsonObject stored = getJson("/v1/timers/" + id);
    assertThat(stored.getString("kind")).isEqualTo("cron");
    assertThat(stored.getString("cron")).isEqualTo("30 2 * * *");
    assertThat(stored.getString("timeZone")).isEqualTo("America/New_York");
    assertThat(stored.getString("dstGap")).isEqualTo("skip");
    assertThat(stored.getString("dstOverlap")).isEqualTo("twice");
    assertThat(stored.getString("misfire")).isEqualTo("skip");
    assertThat(stored.getLong("jitterMs")).isEqualTo(5000L);
    assertThat(stored.getLong("endAt")).isEqualTo(((Number) js("return new Date('2031-06-01T12:00').getTime();")).longValue());
    assertThat(stored.containsKey("periodMs")).isFalse();
    assertThat(stored.getJsonArray("upcoming")).hasSize(5);
    By row = By.cssSelector("#timers-body tr[data-id='" + id + "']");
    type("#q-topic", "console-test");
    new WebDriverWait(driver, WAIT).until(ExpectedConditions.presenceOfElementLocated(row));
    assertThat(driver.findElement(row).getText()).contains("cron").contains("30 2 * * *").contains("America/New_York");
    type("#q-topic", "");
    kind.selectByValue("once");
    type("#f-jitterMs", "");
  }

  @Test
  @Order(6)
  void aServerWithATokenAsksForItAndKeepsItOutOfTheAddressBar() throws Exception {
    String secured = securedBase;
    // the first calls are refused before the token is entered: those 401s are expected in the console
    allowedErrors.add("401");
    driver.get(secured + CONSOLE);
    WebElement input = new WebDriverWait(driver, WAIT).until(ExpectedConditions.visibilityOfElementLocated(By.id("token-input")));
    assertThat(attr("#conn", "data-state")).isIn("auth", "connecting");
    input.sendKeys("s3cret-console");
    driver.findElement(By.cssSelector("#token-form button[type='submit']")).click();
    new WebDriverWait(driver, WAIT).until(d -> "live".equals(attr("#conn", "data-state")));
    new WebDriverWait(driver, WAIT).until(d -> intAttr("#wheel", "data-levels") >= 1);
    assertThat(driver.getCurrentUrl()).doesNotContain("s3cret");
    assertThat((String) js("return sessionStorage.getItem('tickwheel.token');")).isEqualTo("s3cret-console");
  }

  // ------------------------------------------------------------------ helpers

  private static void requireChromium() {
    if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
      fail("The console browser test needs Debian's Chromium and its driver at " + CHROMIUM + " and " + CHROMEDRIVER
          + ": run `apt-get install chromium chromium-driver` (.ci/run does this on a fresh machine).");
    }
  }

  /** Launches the jar with {@code args} (output in target/console-it/NAME.out, .err); see awaitListening. */
  private ServerProcess launch(String name, String... args) {
    ServerProcess server = ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1").args(args)
        .logs(Path.of("target", "console-it"), name).start();
    servers.add(server);
    return server;
  }

  private ChromeDriver browser() throws IOException {
    userDataDir = Files.createTempDirectory("tickwheel-chromium-");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
        "--hide-scrollbars", "--force-device-scale-factor=1", "--window-size=1440,1000",
        "--user-data-dir=" + userDataDir);
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    // The driver is given explicitly, so Selenium Manager never looks for (or downloads) one.
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort()
        .build();
    ChromeDriver d = new ChromeDriver(service, options);
    d.manage().window().setSize(new Dimension(1440, 1000));
    d.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
    return d;
  }

  /** A few thousand timers spread over the levels, and a few fast periodic ones, so the wheel and feed have life. */
  private void seedTimers() throws Exception {
    JsonArray batch = new JsonArray();
    for (int i = 0; i < 3000; i++) {
      long delay = (long) (Math.pow(1.0045, i) * 400);           // 0.4 s .. ~6 days: every level gets some
      batch.add(new JsonObject().put("id", "seed-" + i).put("topic", i % 3 == 0 ? "billing" : "orders")
          .put("delayMs", delay).put("payload", new JsonObject().put("n", i)));
    }
    for (int i = 0; i < 3; i++) {
      batch.add(new JsonObject().put("id", "heartbeat-" + i).put("topic", "heartbeats").put("kind", "fixed-rate")
          .put("periodMs", 700 + 150 * i).put("maxFirings", 40).put("payload", new JsonObject().put("node", i)));
    }
    HttpResponse<String> r = post("/v1/timers/batch", new JsonObject().put("timers", batch));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
  }

  /** Loads the console unless it is already open on the main server (tests share one page, in order). */
  private void openConsole() {
    if (!driver.getCurrentUrl().equals(base + CONSOLE)) {
      driver.get(base + CONSOLE);
      new WebDriverWait(driver, WAIT).until(d -> "live".equals(attr("#conn", "data-state")));
    }
  }

  private int waitForFrames(int atLeast) {
    return new WebDriverWait(driver, WAIT).until(d -> {
      int f = intAttr("#wheel", "data-frames");
      return f >= atLeast ? f : null;
    });
  }

  private List<String> feedIds() {
    @SuppressWarnings("unchecked")
    List<String> ids = (List<String>) js("return [...document.querySelectorAll('#feed li .f-id')].map(e => e.title);");
    return ids;
  }

  private void type(String css, String value) {
    WebElement el = driver.findElement(By.cssSelector(css));
    // clear() does not fire "input"; select-all + the new text does, as a user's typing would. One WebDriver command
    // for the three steps: each command waits for a page that is busy drawing the wheel
    el.sendKeys(org.openqa.selenium.Keys.chord(org.openqa.selenium.Keys.CONTROL, "a"), org.openqa.selenium.Keys.DELETE,
        value);
  }

  private Object js(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  private String text(String css) {
    return driver.findElement(By.cssSelector(css)).getText().trim();
  }

  private String attr(String css, String name) {
    return driver.findElement(By.cssSelector(css)).getAttribute(name);
  }

  private int intAttr(String css, String name) {
    String v = attr(css, name);
    return v == null || v.isEmpty() ? 0 : Integer.parseInt(v);
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private JsonObject getJson(String path) throws Exception {
    HttpResponse<String> r = get(path);
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    return new JsonObject(r.body());
  }

  private HttpResponse<String> post(String path, JsonObject body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(), HttpResponse.BodyHandlers.ofString());
  }
}
