package io.tickwheel.server.http;

import static io.vertx.core.http.HttpMethod.GET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import io.tickwheel.server.testing.BlockedThreadGuard;
import io.tickwheel.server.testing.OpenApiValidator;
import io.tickwheel.server.testing.ServerHarness;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The OpenAPI document the server serves at {@code GET /openapi.yaml}: a real OpenAPI parser reads it without a
 * single message, it lists every route the router has, and the validator the HTTP tests run every answer through
 * refuses answers that do not match it.
 */
@ExtendWith(BlockedThreadGuard.class)
class OpenApiDocumentTest {

  static Vertx vertx;
  static ServerHarness s;

  @BeforeAll
  static void start() {
    vertx = TestVertx.create();
    s = ServerHarness.start(vertx);
  }

  @AfterAll
  static void stop() {
    s.close();
    TestVertx.close(vertx);
  }

  private static SwaggerParseResult parseServed() {
    String served = s.send(GET, "/openapi.yaml").bodyAsString();
    ParseOptions options = new ParseOptions();
    options.setResolve(true);
    return new OpenAPIV3Parser().readContents(served, null, options);
  }

  @Test
  void theServedDocumentIsTheOneOnTheClassPathAndParsesWithoutAnyMessage() {
    String served = s.send(GET, "/openapi.yaml").bodyAsString();
    assertThat(served).isEqualTo(OpenApiValidator.servedDocument());
    SwaggerParseResult result = parseServed();
    assertThat(result.getMessages()).as("errors and warnings of the OpenAPI parser").isEmpty();
    assertThat(result.getOpenAPI()).isNotNull();
    assertThat(result.getOpenAPI().getOpenapi()).startsWith("3.");
  }

  @Test
  void everyRouteTheRouterRegistersIsDocumentedWithItsMethods() {
    OpenAPI api = parseServed().getOpenAPI();
    Set<String> missing = new TreeSet<>();
    int checked = 0;
    for (Route r : s.server.router().getRoutes()) {
      if (r.methods() == null || r.methods().isEmpty()) {
        continue;        // a filter on every method (CORS, auth, metrics, the recovery gate), not an endpoint
      }
      if (r.getPath() == null && r.methods().equals(Set.of(HttpMethod.HEAD))) {
        continue;        // HEAD on every path, answered as the path's GET (documented) without the body
      }
      String path = documentedPath(r);
      if (path.startsWith("/internal/")) {
        continue;        // the calls between nodes: not the API (see route.InternalCodec)
      }
      PathItem item = api.getPaths().get(path);
      for (HttpMethod m : r.methods()) {
        checked++;
        if (item == null || !item.readOperationsMap().containsKey(PathItem.HttpMethod.valueOf(m.name()))) {
          missing.add(m.name() + " " + path + " (route " + (r.getPath() != null ? r.getPath() : r.getName()) + ")");
        }
      }
    }
    assertThat(checked).as("method routes found on the router").isGreaterThan(10);
    assertThat(missing).as("routes the router registers but the document does not list").isEmpty();
  }

  @Test
  void everyApiRouteTakesExactlyTheQueryParametersAndBodyTheDocumentLists() {
    OpenAPI api = parseServed().getOpenAPI();
    Map<String, Set<String>> differ = new java.util.TreeMap<>();
    int checked = 0;
    for (Route r : s.server.router().getRoutes()) {
      if (r.methods() == null || r.methods().isEmpty() || r.getPath() == null || !r.getPath().startsWith("/v1/")) {
        continue;
      }
      PathItem item = api.getPaths().get(documentedPath(r));
      for (HttpMethod m : r.methods()) {
        checked++;
        io.swagger.v3.oas.models.Operation op = item.readOperationsMap().get(PathItem.HttpMethod.valueOf(m.name()));
        Set<String> documented = new TreeSet<>();
        if (op.getParameters() != null) {
          op.getParameters().stream().filter(p -> "query".equals(p.getIn())).forEach(p -> documented.add(p.getName()));
        }
        Set<String> taken = new TreeSet<>(RouteInputs.taken(m, r.getPath()));
        if (!taken.equals(documented)) {
          differ.put(m.name() + " " + r.getPath(), taken);
        }
        assertThat(RouteInputs.takesBody(m, r.getPath())).as("%s %s takes a body as the document says", m,
            r.getPath()).isEqualTo(op.getRequestBody() != null);
        assertThat(op.getResponses()).as("%s %s may answer 400 (an unknown query parameter)", m, r.getPath())
            .containsKey("400");
      }
    }
    assertThat(checked).isGreaterThan(20);
    assertThat(differ).as("routes whose query parameters differ from the document's (what they take)").isEmpty();
  }

  /**
   * What generators make of a request schema: a {@code default} becomes a value the client sends (openapi-generator's
   * Java models start with it) or a required field (openapi-typescript's default options), and a read-only property
   * a field the client may send. So request bodies state defaults in descriptions and hold no read-only property;
   * the clients generated in the openapi-clients module check the outcome.
   */
  @Test
  void requestBodiesHaveNoSchemaDefaultsAndNoReadOnlyProperties() {
    OpenAPI api = parseServed().getOpenAPI();
    Set<String> found = new TreeSet<>();
    int bodies = 0;
    for (Map.Entry<String, PathItem> p : api.getPaths().entrySet()) {
      for (Map.Entry<PathItem.HttpMethod, io.swagger.v3.oas.models.Operation> op
          : p.getValue().readOperationsMap().entrySet()) {
        if (op.getValue().getRequestBody() == null || op.getValue().getRequestBody().getContent() == null) {
          continue;
        }
        for (var media : op.getValue().getRequestBody().getContent().entrySet()) {
          bodies++;
          collectDefaults(api, media.getValue().getSchema(), op.getKey() + " " + p.getKey() + " " + media.getKey(),
              found, new java.util.HashSet<>());
        }
      }
    }
    assertThat(bodies).as("request bodies in the document").isGreaterThanOrEqualTo(5);
    assertThat(found).as("request body schemas with a default or a read-only property").isEmpty();
  }

  private static void collectDefaults(OpenAPI api, io.swagger.v3.oas.models.media.Schema<?> schema, String where,
      Set<String> found, Set<String> seen) {
    if (schema == null) {
      return;
    }
    if (schema.get$ref() != null) {
      String name = schema.get$ref().substring(schema.get$ref().lastIndexOf('/') + 1);
      if (seen.add(name)) {
        collectDefaults(api, api.getComponents().getSchemas().get(name), where + " > " + name, found, seen);
      }
      return;
    }
    if (schema.getDefault() != null) {
      found.add(where + ": default " + schema.getDefault());
    }
    if (Boolean.TRUE.equals(schema.getReadOnly())) {
      found.add(where + ": readOnly");
    }
    if (schema.getProperties() != null) {
      schema.getProperties().forEach((n, s) -> collectDefaults(api, s, where + "." + n, found, seen));
    }
    collectDefaults(api, schema.getItems(), where + "[]", found, seen);
    for (var list : java.util.Arrays.asList(schema.getAllOf(), schema.getOneOf(), schema.getAnyOf())) {
      if (list != null) {
        list.forEach(s -> collectDefaults(api, s, where, found, seen));
      }
    }
  }

  /**
   * A route's path as the document writes it: {@code :id} is {@code {id}}; a prefix route ({@code /console/*},
   * whose path the router keeps as {@code /console/}) is {@code /console/{file}}.
   */
  private static String documentedPath(Route r) {
    String p = r.getPath();
    if (p == null) {
      // a regex route: only literal ones (anchored, no pattern characters) are used
      String regex = r.getName();
      assertThat(regex).as("regex route").matches("\\^[/A-Za-z0-9._-]+\\$");
      return regex.substring(1, regex.length() - 1);
    }
    p = p.replaceAll(":([A-Za-z0-9_]+)", "{$1}");
    return p.length() > 1 && p.endsWith("/") ? p + "{file}" : p;
  }

  @Test
  void theValidatorRefusesAnAnswerWhoseBodyDoesNotMatchItsSchema() {
    byte[] body = "{\"id\":\"a\",\"topic\":\"t\",\"kind\":\"once\",\"delayMs\":\"soon\",\"nextDueAt\":1,\"firings\":0,\"createdAt\":1}"
        .getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> OpenApiValidator.served().validate(GET, "/v1/timers/a", 200,
        Map.of("Content-Type", List.of("application/json")), body))
        .isInstanceOf(AssertionError.class).hasMessageContaining("delayMs");
  }

  @Test
  void theValidatorRefusesAStatusTheOperationDoesNotList() {
    byte[] body = "{\"error\":{\"code\":\"already_exists\",\"message\":\"m\"}}".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> OpenApiValidator.served().validate(GET, "/v1/timers/a", 409,
        Map.of("Content-Type", List.of("application/json")), body))
        .isInstanceOf(AssertionError.class).hasMessageContaining("409");
  }

  @Test
  void anAnswerToAnUndocumentedRouteMustStillBeTheDocumentedErrorShape() {
    Map<String, List<String>> json = Map.of("Content-Type", List.of("application/json"));
    OpenApiValidator.served().validate(GET, "/v1/nowhere", 404, json,
        "{\"error\":{\"code\":\"not_found\",\"message\":\"no such route\"}}".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> OpenApiValidator.served().validate(GET, "/v1/nowhere", 404, json,
        "{\"message\":\"no such route\"}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(AssertionError.class).hasMessageContaining("error");
    assertThatThrownBy(() -> OpenApiValidator.served().validate(GET, "/v1/nowhere", 200, json,
        "{}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void aPushedFiringIsCheckedAgainstTheFiringSchema() {
    OpenApiValidator.served().validateSchema("Firing", "{\"type\":\"fired\",\"seq\":1,\"id\":\"a\",\"topic\":\"t\","
        + "\"firing\":1,\"dueAt\":10,\"nominalAt\":10,\"firedAt\":12,\"payload\":null}");
    // as pushed in a cluster: partition and a cluster cursor
    OpenApiValidator.served().validateSchema("Firing", "{\"type\":\"fired\",\"seq\":1,\"id\":\"a\",\"topic\":\"t\","
        + "\"firing\":1,\"dueAt\":10,\"nominalAt\":10,\"firedAt\":12,\"payload\":null,\"partition\":3,"
        + "\"cursor\":\"cBAICAgI\"}");
    assertThatThrownBy(() -> OpenApiValidator.served().validateSchema("Firing", "{\"type\":\"fired\",\"seq\":1,"
        + "\"id\":\"a\",\"topic\":\"t\",\"firing\":1,\"dueAt\":10,\"nominalAt\":10,\"firedAt\":12,\"payload\":null,"
        + "\"cursor\":\"not a cursor\"}"))
        .isInstanceOf(AssertionError.class).hasMessageContaining("cursor");
    assertThatThrownBy(() -> OpenApiValidator.served().validateSchema("Firing",
        "{\"type\":\"fired\",\"id\":\"a\",\"topic\":\"t\",\"firing\":1,\"dueAt\":10,\"firedAt\":12,\"payload\":1}"))
        .isInstanceOf(AssertionError.class).hasMessageContaining("seq");
  }
}
