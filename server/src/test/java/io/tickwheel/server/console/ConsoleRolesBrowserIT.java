package io.tickwheel.server.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.tickwheel.server.security.TlsIT;
import io.tickwheel.testkit.ServerProcess;
import io.tickwheel.testkit.TestCertificates;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
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
 * The console in Chromium over HTTPS ({@code --tls-cert}; Chromium accepts the server's certificate by the pin of its
 * public key, {@code --ignore-certificate-errors-spki-list}, and nothing else) with {@code --tokens-file}: with a
 * {@code read} token it shows the timers but every action is disabled, saying why; with a {@code write} token the
 * actions work. No error in the browser's console.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleRolesBrowserIT {

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final Duration WAIT = Duration.ofSeconds(30);
  static final String READ = "console-read-token";
  static final String WRITE = "console-write-token";
  static final String ADMIN = "console-admin-token";

  @TempDir
  static Path tmp;
  private ServerProcess server;
  private ChromeDriver driver;
  private HttpClient http;
  private TestCertificates certs;

  @BeforeAll
  void start() throws Exception {
    if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
      fail("The console browser test needs Debian's Chromium and its driver at " + CHROMIUM + " and " + CHROMEDRIVER
          + ": run `apt-get install chromium chromium-driver`.");
    }
    certs = TestCertificates.create(tmp.resolve("certs"));
    TestCertificates.Pair pair = certs.issue("console");
    Path tokens = Files.writeString(tmp.resolve("tokens"), "read " + READ + "\nwrite " + WRITE + "\nadmin " + ADMIN
        + "\n");
    server = ServerProcess.fromJar(ServerProcess.jarFromProperty())
        .jvmArgs("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
        .args("--port", "0", "--store", "memory", "--tokens-file", tokens.toString(),
            "--tls-cert", pair.cert().toString(), "--tls-key", pair.key().toString())
        .logs(tmp, "console-roles").start();
    driver = browser(spkiPin(pair.cert()));
    server.awaitListening(Duration.ofSeconds(60));
    http = HttpClient.newBuilder().sslContext(TlsIT.sslContext(certs.ca())).connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  @AfterAll
  void stop() {
    if (driver != null) {
      driver.quit();
    }
    if (server != null) {
      server.close();
    }
  }

  /** Base64 of the SHA-256 of the certificate's SubjectPublicKeyInfo: what Chromium pins. */
  static String spkiPin(Path cert) throws Exception {
    try (InputStream in = Files.newInputStream(cert)) {
      X509Certificate c = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
      return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256")
          .digest(c.getPublicKey().getEncoded()));
    }
  }

  private ChromeDriver browser(String pin) throws Exception {
    Path userData = Files.createDirectories(tmp.resolve("chromium"));
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
        "--window-size=1440,1000", "--user-data-dir=" + userData, "--ignore-certificate-errors-spki-list=" + pin);
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort().build();
    return new ChromeDriver(service, options);
  }

  private HttpResponse<String> call(String method, String path, String token, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.baseUrl() + path)).timeout(Duration.ofSeconds(10))
        .header("Authorization", "Bearer " + token)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private Object js(String script) {
    return ((JavascriptExecutor) driver).executeScript(script);
  }

  private List<String> browserErrors() {
    List<String> errors = new ArrayList<>();
    for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
      if (e.getLevel().intValue() >= Level.SEVERE.intValue()) {
        errors.add(e.getMessage());
      }
    }
    return errors;
  }

  @Test
  void aReadTokenSeesTimersWithActionsDisabledSayingWhyAndAWriteTokenActs() throws Exception {
    assertThat(call("PUT", "/v1/timers/console-role-1", ADMIN,
        "{\"topic\":\"roles\",\"delayMs\":3600000}").statusCode()).isEqualTo(201);
    By row = By.cssSelector("#timers-body tr[data-id='console-role-1']");
    By pause = By.cssSelector("#timers-body tr[data-id='console-role-1'] button[data-action='pause']");

    // read: the page over https, live, the timer listed, its actions and the form disabled with the reason
    driver.get(server.baseUrl() + "/console/index.html#access_token=" + READ);
    new WebDriverWait(driver, WAIT).until(d -> "live".equals(d.findElement(By.id("conn")).getAttribute("data-state")));
    assertThat(js("return location.protocol")).isEqualTo("https:");
    new WebDriverWait(driver, WAIT).until(ExpectedConditions.presenceOfElementLocated(row));
    new WebDriverWait(driver, WAIT).until(d -> "read".equals(js("return document.documentElement.dataset.role")));
    new WebDriverWait(driver, WAIT).until(d -> !d.findElement(pause).isEnabled());
    WebElement p = driver.findElement(pause);
    assertThat(p.getAttribute("title")).contains("read-only").contains("write");
    for (WebElement b : driver.findElements(By.cssSelector("#timers-body tr[data-id='console-role-1'] button"))) {
      assertThat(b.isEnabled()).as("button %s", b.getText()).isFalse();
    }
    assertThat(driver.findElement(By.id("create-submit")).isEnabled()).isFalse();
    WebElement note = driver.findElement(By.id("role-note"));
    assertThat(note.isDisplayed()).isTrue();
    assertThat(note.getText()).contains("read-only");

    // write: the same page with the write token (the token dialog), the actions enabled and working
    driver.findElement(By.id("token-btn")).click();
    WebElement input = new WebDriverWait(driver, WAIT)
        .until(ExpectedConditions.visibilityOfElementLocated(By.id("token-input")));
    input.sendKeys(WRITE);
    driver.findElement(By.cssSelector("#token-form button[type='submit']")).click();
    new WebDriverWait(driver, WAIT).until(d -> "write".equals(js("return document.documentElement.dataset.role")));
    new WebDriverWait(driver, WAIT).until(d -> d.findElement(pause).isEnabled());
    assertThat(driver.findElement(By.id("role-note")).isDisplayed()).isFalse();
    assertThat(driver.findElement(By.id("create-submit")).isEnabled()).isTrue();
    driver.findElement(pause).click();
    new WebDriverWait(driver, WAIT).until(d -> {
      try {
        return new JsonObject(call("GET", "/v1/timers/console-role-1", READ, null).body()).getBoolean("paused", false);
      } catch (Exception e) {
        return false;
      }
    });
    assertThat(browserErrors()).as("errors in the browser console").isEmpty();
  }
}
