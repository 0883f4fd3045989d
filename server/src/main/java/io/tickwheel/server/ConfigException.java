package io.tickwheel.server;

/**
 * A bad configuration value; the message names it and its value. From {@link ServerCli} the message names the flag
 * or environment variable the value came from; from the {@link ServerConfig} constructor it names the record
 * component ({@link #field()}). Main exits with status 2.
 */
public final class ConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String field;
  private final String problem;

  /** A problem that is not about one {@link ServerConfig} component (an unknown flag, a missing value). */
  public ConfigException(String message) {
    super(message);
    this.field = null;
    this.problem = message;
  }

  private ConfigException(String field, String problem) {
    super(field + " " + problem);
    this.field = field;
    this.problem = problem;
  }

  /** A bad value of the {@link ServerConfig} component {@code field}; {@code problem} reads after its name. */
  public static ConfigException field(String field, String problem) {
    return new ConfigException(field, problem);
  }

  /** The {@link ServerConfig} component at fault, or {@code null}. */
  public String field() {
    return field;
  }

  /** The message without the component's name (e.g. {@code must be between 0 and 65535, was 70000}). */
  public String problem() {
    return problem;
  }
}
