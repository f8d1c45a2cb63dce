/**
 * Variables documented in .env.example ahead of the code that reads them (e.g. while an issue is
 * under way). The check tolerates these being unread; delete each once the code reads it.
 */
export const DOCUMENTED_AHEAD: readonly string[] = [
  // Issue 48, read on its other branches: the supervisor's DYNAMIC_AGENTS_URL polling (h/delegation)
  // and the host's alias for APP_CONFIG_FILE (h/definitions).
  "DYNAMIC_AGENTS_POLL_SECONDS",
  "APP_CONFIG_PATH",
];

/**
 * Variables documented in .env.example that a library reads rather than our code: the OpenTelemetry
 * SDK takes its exporter protocol, headers and sampler from these (see agent-runtime's tracing.ts).
 */
export const READ_BY_LIBRARIES: readonly string[] = [
  "OTEL_EXPORTER_OTLP_PROTOCOL",
  "OTEL_EXPORTER_OTLP_HEADERS",
  "OTEL_TRACES_SAMPLER",
  "OTEL_TRACES_SAMPLER_ARG",
];
