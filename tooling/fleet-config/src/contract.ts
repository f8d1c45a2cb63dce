/**
 * Variables documented in .env.example ahead of the code that reads them (e.g. while an issue is
 * under way). The check tolerates these being unread; delete each once the code reads it.
 */
export const DOCUMENTED_AHEAD: readonly string[] = [];

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
