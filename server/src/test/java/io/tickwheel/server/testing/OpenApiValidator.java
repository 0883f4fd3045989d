package io.tickwheel.server.testing;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.MessageResolver;
import com.atlassian.oai.validator.report.ValidationReport;
import com.atlassian.oai.validator.schema.SchemaValidator;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Checks answers of the server against the OpenAPI document it serves ({@code openapi.yaml} on the class path,
 * what {@code GET /openapi.yaml} returns): the path and method are documented, the status is one the operation
 * lists, and the headers and body match the response's schema. Any message the validator reports fails the
 * test ({@link AssertionError}), so the document cannot drift from what the server answers.
 *
 * <p>An answer to a path the document does not have (404) or a method it does not list for the path (405) cannot
 * match an operation; it must still be what the document promises for every error: that status, with a body of
 * its {@code Error} schema.
 *
 * <p>A path ending in {@code /} that the document does not have is checked as its index page, {@code index.html}
 * (what the router's static handler serves there: {@code /console/} is {@code /console/{file}}).
 *
 * <p>The served document is parsed once per JVM. Thread safe (the underlying validators are).
 */
public final class OpenApiValidator {

  /** Where the server reads its document from (the class path), and so where the tests read it from too. */
  public static final String RESOURCE = "openapi.yaml";

  private static final OpenApiValidator SERVED = new OpenApiValidator(servedDocument());

  /** The validator's message key for a path the document does not have. */
  private static final String NO_PATH = "validation.request.path.missing";
  /** The validator's message key for a method the document does not list for a path. */
  private static final String NO_METHOD = "validation.request.operation.notAllowed";

  /** The page a static directory's path ({@code /console/}) serves, as the router's static handler is set up. */
  private static final String INDEX = "index.html";

  private final OpenApiInteractionValidator validator;
  private final SchemaValidator schemas;
  private final Schema<?> errorSchema;
  private final OpenAPI api;

  /** A validator for the given document text (YAML or JSON), which must have an {@code Error} schema. */
  public OpenApiValidator(String document) {
    ParseOptions resolve = new ParseOptions();
    resolve.setResolve(true);
    this.api = new OpenAPIV3Parser().readContents(document, null, resolve).getOpenAPI();
    // strict: a trailing slash is significant, as it is for the router ("/console" redirects, "/console/" is the page)
    this.validator = OpenApiInteractionValidator.createForInlineApiSpecification(document)
        .withStrictOperationPathMatching().build();
    this.schemas = new SchemaValidator(api, new MessageResolver());
    this.errorSchema = api.getComponents().getSchemas().get("Error");
    if (errorSchema == null) {
      throw new IllegalArgumentException("the document has no components/schemas/Error");
    }
  }

  /** The validator for the document the server serves. */
  public static OpenApiValidator served() {
    return SERVED;
  }

  /** The text of the document the server serves. */
  public static String servedDocument() {
    try (InputStream in = OpenApiValidator.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is not on the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Validates one answer.
   *
   * @param method  the request's method
   * @param uri     the request's URI; a query string is ignored
   * @param status  the answer's status
   * @param headers the answer's headers (names as sent; several values per name allowed)
   * @param body    the answer's body, or {@code null} / empty for none
   * @throws AssertionError listing every message of the validator, with the answer
   */
  public void validate(HttpMethod method, String uri, int status, Map<String, List<String>> headers, byte[] body) {
    String path = uri.indexOf('?') < 0 ? uri : uri.substring(0, uri.indexOf('?'));
    SimpleResponse.Builder b = SimpleResponse.Builder.status(status);
    headers.forEach(b::withHeader);
    if (body != null && body.length > 0) {
      b.withBody(body);
    }
    SimpleResponse response = b.build();
    ValidationReport report = validator.validateResponse(path, Request.Method.valueOf(method.name()), response);
    if (path.endsWith("/") && isOnly(report, NO_PATH)) {
      // a directory of static files (the console): the router serves its index page there
      report = validator.validateResponse(path + INDEX, Request.Method.valueOf(method.name()), response);
    }
    if (report.getMessages().size() == 1 && isUndocumented(report.getMessages().get(0), status)) {
      String text = body == null ? "" : new String(body, StandardCharsets.UTF_8);
      report = schemas.validate(text, errorSchema, "response.body");
    }
    if (!report.getMessages().isEmpty()) {
      String text = body == null ? "" : new String(body, StandardCharsets.UTF_8);
      throw new AssertionError("the answer to " + method + " " + uri + " (" + status + " " + headers + " "
          + (text.length() > 2000 ? text.substring(0, 2000) + "…" : text) + ") does not match the OpenAPI document:\n  "
          + report.getMessages().stream().map(ValidationReport.Message::toString)
              .collect(Collectors.joining("\n  ")));
    }
  }

  /**
   * Validates a JSON text against one of the document's schemas, e.g. a pushed firing against {@code Firing}.
   *
   * @throws AssertionError listing every message of the validator, with the text
   */
  public void validateSchema(String schemaName, String json) {
    Schema<?> schema = api.getComponents().getSchemas().get(schemaName);
    if (schema == null) {
      throw new AssertionError("the document has no components/schemas/" + schemaName);
    }
    ValidationReport report = schemas.validate(json, schema, schemaName);
    if (!report.getMessages().isEmpty()) {
      throw new AssertionError(json + " is not a " + schemaName + " of the OpenAPI document:\n  "
          + report.getMessages().stream().map(ValidationReport.Message::toString)
              .collect(Collectors.joining("\n  ")));
    }
  }

  private static boolean isOnly(ValidationReport report, String key) {
    return report.getMessages().size() == 1 && key.equals(report.getMessages().get(0).getKey());
  }

  /** Whether the only message says the route is not in the document, and the status says the same. */
  private static boolean isUndocumented(ValidationReport.Message m, int status) {
    return (NO_PATH.equals(m.getKey()) && status == 404) || (NO_METHOD.equals(m.getKey()) && status == 405);
  }

  /** Validates a {@link HttpResponse} of the Vert.x web client; returns it, for chaining. */
  public HttpResponse<Buffer> validate(HttpMethod method, String uri, HttpResponse<Buffer> r) {
    Map<String, List<String>> headers = r.headers().names().stream()
        .collect(Collectors.toMap(n -> n, n -> r.headers().getAll(n), (a, b) -> a));
    validate(method, uri, r.statusCode(), headers, r.body() == null ? null : r.body().getBytes());
    return r;
  }
}
