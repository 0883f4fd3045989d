package io.tickwheel.client;

import java.net.URI;

/**
 * Options of a {@link TickwheelClient}, in the vertx-redis-client style: fluent setters, defaults below, each
 * setter refusing a bad value with an {@link IllegalArgumentException} naming the option and the value.
 *
 * <table>
 *   <caption>options</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>endpoint / endpoints</td><td>{@value #DEFAULT_ENDPOINT}</td><td>the server's base URL, {@code http://}
 *   or {@code https://}; or a cluster's nodes, tried in turn when one cannot be reached ({@link #setEndpoints})</td></tr>
 *   <tr><td>token</td><td>none</td><td>sent as {@code Authorization: Bearer TOKEN} on every call</td></tr>
 *   <tr><td>trustedCertificates</td><td>the JVM's trust store</td><td>a PEM file of the CA certificates an
 *   {@code https://} server is verified against (its host name is verified too)</td></tr>
 *   <tr><td>connectTimeoutMs</td><td>{@value #DEFAULT_CONNECT_TIMEOUT_MS}</td><td>TCP + WebSocket handshake</td></tr>
 *   <tr><td>idleTimeoutMs</td><td>{@value #DEFAULT_IDLE_TIMEOUT_MS}</td><td>a connection idle this long is closed;
 *   subscriptions ping every half of it, so they stay open</td></tr>
 *   <tr><td>requestTimeoutMs</td><td>{@value #DEFAULT_REQUEST_TIMEOUT_MS}</td><td>from a call to its answer, time
 *   queued and retries included; then the future fails with {@code timeout}</td></tr>
 *   <tr><td>maxInFlight</td><td>{@value #DEFAULT_MAX_IN_FLIGHT}</td><td>commands written to the WebSocket and not
 *   yet answered</td></tr>
 *   <tr><td>maxQueued</td><td>{@value #DEFAULT_MAX_QUEUED}</td><td>commands waiting for an in-flight slot (or for
 *   the connection); beyond it a call fails at once with {@code queue_full}. Touches have a queue of their own with
 *   the same cap (distinct (id, delayMs) touches waiting for a batch, follow-ups included)</td></tr>
 *   <tr><td>maxTouchBatchIds</td><td>{@value #DEFAULT_MAX_TOUCH_BATCH_IDS}</td><td>ids per batch touch request
 *   ({@code POST /v1/timers/touch}; the server takes at most 10,000)</td></tr>
 *   <tr><td>maxTouchBatchesInFlight</td><td>{@value #DEFAULT_MAX_TOUCH_BATCHES_IN_FLIGHT}</td><td>batch touch
 *   requests sent and not yet answered (one HTTP connection each)</td></tr>
 *   <tr><td>maxScheduleBatchTimers</td><td>{@value #DEFAULT_MAX_SCHEDULE_BATCH_TIMERS}</td><td>timers per batch
 *   create request ({@code POST /v1/timers/batch}, the server takes at most 10,000) that schedules are gathered
 *   into</td></tr>
 *   <tr><td>maxScheduleBatchesInFlight</td><td>{@value #DEFAULT_MAX_SCHEDULE_BATCHES_IN_FLIGHT}</td><td>batch create
 *   requests sent and not yet answered (one HTTP connection each)</td></tr>
 *   <tr><td>reconnectInitialBackoffMs</td><td>{@value #DEFAULT_RECONNECT_INITIAL_BACKOFF_MS}</td><td>first wait
 *   before reconnecting; doubled after each failed attempt</td></tr>
 *   <tr><td>reconnectMaxBackoffMs</td><td>{@value #DEFAULT_RECONNECT_MAX_BACKOFF_MS}</td><td>the wait's cap</td></tr>
 * </table>
 *
 * <p>Mutable and not thread safe; the client copies it at creation, so later changes do not affect it.
 */
public final class TickwheelClientOptions {

  public static final String DEFAULT_ENDPOINT = "http://127.0.0.1:8080";
  /** The most endpoints {@link #setEndpoints} takes. */
  public static final int MAX_ENDPOINTS = 64;
  public static final int DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
  public static final int DEFAULT_IDLE_TIMEOUT_MS = 60_000;
  public static final int DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
  public static final int DEFAULT_MAX_IN_FLIGHT = 1_024;
  public static final int DEFAULT_MAX_QUEUED = 65_536;
  public static final int DEFAULT_MAX_TOUCH_BATCH_IDS = 10_000;
  public static final int DEFAULT_MAX_TOUCH_BATCHES_IN_FLIGHT = 4;
  public static final int DEFAULT_MAX_SCHEDULE_BATCH_TIMERS = 1_000;
  public static final int DEFAULT_MAX_SCHEDULE_BATCHES_IN_FLIGHT = 4;
  public static final int DEFAULT_RECONNECT_INITIAL_BACKOFF_MS = 100;
  public static final int DEFAULT_RECONNECT_MAX_BACKOFF_MS = 5_000;

  private java.util.List<String> endpoints = java.util.List.of(DEFAULT_ENDPOINT);
  private String token;
  private java.nio.file.Path trustedCertificates;
  private int connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS;
  private int idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS;
  private int requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS;
  private int maxInFlight = DEFAULT_MAX_IN_FLIGHT;
  private int maxQueued = DEFAULT_MAX_QUEUED;
  private int maxTouchBatchIds = DEFAULT_MAX_TOUCH_BATCH_IDS;
  private int maxTouchBatchesInFlight = DEFAULT_MAX_TOUCH_BATCHES_IN_FLIGHT;
  private int maxScheduleBatchTimers = DEFAULT_MAX_SCHEDULE_BATCH_TIMERS;
  private int maxScheduleBatchesInFlight = DEFAULT_MAX_SCHEDULE_BATCHES_IN_FLIGHT;
  private int reconnectInitialBackoffMs = DEFAULT_RECONNECT_INITIAL_BACKOFF_MS;
  private int reconnectMaxBackoffMs = DEFAULT_RECONNECT_MAX_BACKOFF_MS;

  public TickwheelClientOptions() {}

  /** A copy of {@code other}. */
  public TickwheelClientOptions(TickwheelClientOptions other) {
    this.endpoints = other.endpoints;
    this.token = other.token;
    this.trustedCertificates = other.trustedCertificates;
    this.connectTimeoutMs = other.connectTimeoutMs;
    this.idleTimeoutMs = other.idleTimeoutMs;
    this.requestTimeoutMs = other.requestTimeoutMs;
    this.maxInFlight = other.maxInFlight;
    this.maxQueued = other.maxQueued;
    this.maxTouchBatchIds = other.maxTouchBatchIds;
    this.maxTouchBatchesInFlight = other.maxTouchBatchesInFlight;
    this.maxScheduleBatchTimers = other.maxScheduleBatchTimers;
    this.maxScheduleBatchesInFlight = other.maxScheduleBatchesInFlight;
    this.reconnectInitialBackoffMs = other.reconnectInitialBackoffMs;
    this.reconnectMaxBackoffMs = other.reconnectMaxBackoffMs;
  }

  /** The first endpoint (the only one unless {@link #setEndpoints} gave several). */
  public String getEndpoint() {
    return endpoints.get(0);
  }

  /**
   * The server's base URL: {@code http://HOST:PORT} or {@code https://HOST:PORT}, no path, query or fragment.
   * A trailing {@code /} is dropped. Replaces the endpoint list by this one endpoint.
   */
  public TickwheelClientOptions setEndpoint(String endpoint) {
    this.endpoints = java.util.List.of(checkEndpoint("endpoint", endpoint));
    return this;
  }

  /** The endpoints, in the order they are tried (unmodifiable). */
  public java.util.List<String> getEndpoints() {
    return endpoints;
  }

  /**
   * The nodes of a tickwheel cluster (or one server), each as {@link #setEndpoint}: 1 to {@value #MAX_ENDPOINTS},
   * one scheme for all, no two alike. Any node answers every call and serves every firing, and a subscription's
   * cursor resumes on any node, so the client uses one endpoint at a time for everything and moves on to the next
   * (round robin, from the first) when a connection to the one in use cannot be made: a WebSocket connect that fails
   * or times out, an HTTP request that gets no connection. The reconnect backoff applies as with one endpoint, each
   * attempt to the next node. A request that was sent and got no answer is not sent to another node (it may have
   * been applied): it fails as with one endpoint ({@code timeout} or {@code connection_lost}, {@code mayHaveApplied}).
   *
   * <p>With two or more endpoints the client also reads the cluster's partition map ({@code GET /v1/cluster}, again
   * every few seconds while in use and soon after an owner could not be reached) and sends every call about one timer
   * straight to the node that owns its id rather than through the endpoint in use (which forwards what it does not
   * own): schedules and touches in batches split by owner, {@code put} and {@code cancel} on a command WebSocket per
   * owner, {@code get} and the timer's actions as requests to the owner. A timer without an id, or whose owner is not
   * known or cannot be reached, goes to the endpoint in use.
   *
   * @throws IllegalArgumentException naming the entry ({@code endpoints[i]}) that is not a valid endpoint, a repeated
   *                                  one, or schemes that differ; for an empty, null or too long list
   */
  public TickwheelClientOptions setEndpoints(java.util.List<String> endpoints) {
    if (endpoints == null || endpoints.isEmpty() || endpoints.size() > MAX_ENDPOINTS) {
      throw new IllegalArgumentException("endpoints must hold 1 to " + MAX_ENDPOINTS + " endpoints, was "
          + (endpoints == null ? "null" : endpoints.size() + " endpoints"));
    }
    java.util.List<String> checked = new java.util.ArrayList<>(endpoints.size());
    for (int i = 0; i < endpoints.size(); i++) {
      String e = checkEndpoint("endpoints[" + i + "]", endpoints.get(i));
      if (checked.contains(e)) {
        throw new IllegalArgumentException("endpoints[" + i + "] '" + e + "' is given twice");
      }
      if (!checked.isEmpty() && scheme(checked.get(0)) != scheme(e)) {
        throw new IllegalArgumentException("endpoints[" + i + "] '" + e + "' has another scheme than endpoints[0] '"
            + checked.get(0) + "': all must be http or all https");
      }
      checked.add(e);
    }
    this.endpoints = java.util.List.copyOf(checked);
    return this;
  }

  private static boolean scheme(String endpoint) {
    return endpoint.startsWith("https:");
  }

  private static String checkEndpoint(String field, String endpoint) {
    if (endpoint == null) {
      throw new IllegalArgumentException(field + " must be http://HOST:PORT or https://HOST:PORT, was null");
    }
    String e = endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
    URI u;
    try {
      u = new URI(e);
    } catch (java.net.URISyntaxException ex) {
      throw new IllegalArgumentException(field + " must be http://HOST:PORT or https://HOST:PORT, was '" + endpoint
          + "' (" + ex.getReason() + ")");
    }
    if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null
        || (u.getRawPath() != null && !u.getRawPath().isEmpty()) || u.getRawQuery() != null
        || u.getRawFragment() != null || u.getRawUserInfo() != null) {
      throw new IllegalArgumentException(field + " must be http://HOST:PORT or https://HOST:PORT, was '" + endpoint
          + "'");
    }
    return e;
  }

  public String getToken() {
    return token;
  }

  /** The bearer token of a server started with {@code --token}, or null for none; never blank. */
  public TickwheelClientOptions setToken(String token) {
    if (token != null && (token.isBlank() || token.chars().anyMatch(c -> c < 0x21 || c > 0x7e))) {
      throw new IllegalArgumentException("token must be printable ASCII without spaces, or null; was '"
          + (token.isBlank() ? token : "<" + token.length() + " characters>") + "'");
    }
    this.token = token;
    return this;
  }

  public java.nio.file.Path getTrustedCertificates() {
    return trustedCertificates;
  }

  /**
   * A PEM file of the CA certificates {@code https://} endpoints are verified against (a private CA, or the server's
   * own self-signed certificate), or null for the JVM's trust store. The file is read when the client is created.
   */
  public TickwheelClientOptions setTrustedCertificates(java.nio.file.Path pemFile) {
    if (pemFile != null && !java.nio.file.Files.isReadable(pemFile)) {
      throw new IllegalArgumentException("trustedCertificates must be a readable PEM file, was '" + pemFile + "'");
    }
    this.trustedCertificates = pemFile;
    return this;
  }

  public int getConnectTimeoutMs() {
    return connectTimeoutMs;
  }

  /** 1 ms .. 10 minutes. */
  public TickwheelClientOptions setConnectTimeoutMs(int connectTimeoutMs) {
    this.connectTimeoutMs = range("connectTimeoutMs", connectTimeoutMs, 1, 600_000);
    return this;
  }

  public int getIdleTimeoutMs() {
    return idleTimeoutMs;
  }

  /** 100 ms .. 1 hour. */
  public TickwheelClientOptions setIdleTimeoutMs(int idleTimeoutMs) {
    this.idleTimeoutMs = range("idleTimeoutMs", idleTimeoutMs, 100, 3_600_000);
    return this;
  }

  public int getRequestTimeoutMs() {
    return requestTimeoutMs;
  }

  /** 1 ms .. 1 hour. */
  public TickwheelClientOptions setRequestTimeoutMs(int requestTimeoutMs) {
    this.requestTimeoutMs = range("requestTimeoutMs", requestTimeoutMs, 1, 3_600_000);
    return this;
  }

  public int getMaxInFlight() {
    return maxInFlight;
  }

  /** 1 .. 1,000,000. */
  public TickwheelClientOptions setMaxInFlight(int maxInFlight) {
    this.maxInFlight = range("maxInFlight", maxInFlight, 1, 1_000_000);
    return this;
  }

  public int getMaxQueued() {
    return maxQueued;
  }

  /**
   * 0 (no queue: a call beyond {@code maxInFlight}, or made while the connection is not open, fails at once) ..
   * 10,000,000.
   */
  public TickwheelClientOptions setMaxQueued(int maxQueued) {
    this.maxQueued = range("maxQueued", maxQueued, 0, 10_000_000);
    return this;
  }

  public int getMaxTouchBatchIds() {
    return maxTouchBatchIds;
  }

  /** 1 .. 10,000 (the server's cap on ids per batch touch). */
  public TickwheelClientOptions setMaxTouchBatchIds(int maxTouchBatchIds) {
    this.maxTouchBatchIds = range("maxTouchBatchIds", maxTouchBatchIds, 1, 10_000);
    return this;
  }

  public int getMaxTouchBatchesInFlight() {
    return maxTouchBatchesInFlight;
  }

  /** 1 .. 64. */
  public TickwheelClientOptions setMaxTouchBatchesInFlight(int maxTouchBatchesInFlight) {
    this.maxTouchBatchesInFlight = range("maxTouchBatchesInFlight", maxTouchBatchesInFlight, 1, 64);
    return this;
  }

  public int getMaxScheduleBatchTimers() {
    return maxScheduleBatchTimers;
  }

  /** 1 .. 10,000 (the server's cap on timers per batch). */
  public TickwheelClientOptions setMaxScheduleBatchTimers(int maxScheduleBatchTimers) {
    this.maxScheduleBatchTimers = range("maxScheduleBatchTimers", maxScheduleBatchTimers, 1, 10_000);
    return this;
  }

  public int getMaxScheduleBatchesInFlight() {
    return maxScheduleBatchesInFlight;
  }

  /** 1 .. 64. */
  public TickwheelClientOptions setMaxScheduleBatchesInFlight(int maxScheduleBatchesInFlight) {
    this.maxScheduleBatchesInFlight = range("maxScheduleBatchesInFlight", maxScheduleBatchesInFlight, 1, 64);
    return this;
  }

  public int getReconnectInitialBackoffMs() {
    return reconnectInitialBackoffMs;
  }

  /** 1 ms .. 1 minute. */
  public TickwheelClientOptions setReconnectInitialBackoffMs(int reconnectInitialBackoffMs) {
    this.reconnectInitialBackoffMs = range("reconnectInitialBackoffMs", reconnectInitialBackoffMs, 1, 60_000);
    return this;
  }

  public int getReconnectMaxBackoffMs() {
    return reconnectMaxBackoffMs;
  }

  /** 1 ms .. 10 minutes; must be at least {@code reconnectInitialBackoffMs} (checked when the client is created). */
  public TickwheelClientOptions setReconnectMaxBackoffMs(int reconnectMaxBackoffMs) {
    this.reconnectMaxBackoffMs = range("reconnectMaxBackoffMs", reconnectMaxBackoffMs, 1, 600_000);
    return this;
  }

  /**
   * The checks across options, run by {@link TickwheelClient#create}.
   *
   * @throws IllegalArgumentException naming the options and their values
   */
  public TickwheelClientOptions validate() {
    if (reconnectMaxBackoffMs < reconnectInitialBackoffMs) {
      throw new IllegalArgumentException("reconnectMaxBackoffMs (" + reconnectMaxBackoffMs
          + ") must be >= reconnectInitialBackoffMs (" + reconnectInitialBackoffMs + ")");
    }
    return this;
  }

  private static int range(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "], was " + value);
    }
    return value;
  }

  @Override
  public String toString() {
    return "TickwheelClientOptions{endpoints=" + endpoints + ", token=" + (token == null ? "none" : "***")
        + ", connectTimeoutMs=" + connectTimeoutMs + ", idleTimeoutMs=" + idleTimeoutMs + ", requestTimeoutMs="
        + requestTimeoutMs + ", maxInFlight=" + maxInFlight + ", maxQueued=" + maxQueued
        + ", maxTouchBatchIds=" + maxTouchBatchIds + ", maxTouchBatchesInFlight=" + maxTouchBatchesInFlight
        + ", maxScheduleBatchTimers=" + maxScheduleBatchTimers + ", maxScheduleBatchesInFlight="
        + maxScheduleBatchesInFlight
        + ", reconnectInitialBackoffMs=" + reconnectInitialBackoffMs + ", reconnectMaxBackoffMs="
        + reconnectMaxBackoffMs + '}';
  }
}
