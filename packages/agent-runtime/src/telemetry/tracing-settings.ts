/**
 * Whether this agent exports OpenTelemetry traces, read from the standard OTEL_* variables only.
 * Off unless an OTLP endpoint is set (or OTEL_TRACES_EXPORTER names an exporter), so an agent
 * without one never loads the SDK; OTEL_SDK_DISABLED=true turns it off whatever else is set.
 * Endpoint, protocol, headers, sampler and batching are read by the SDK itself.
 */
export type TracingSettings =
  | { enabled: false }
  | {
      enabled: true;
      /** OTEL_SERVICE_NAME, else `switchboard-<agent>`. */
      serviceName: string;
      /** Prompt and completion text on model spans: only with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true. */
      captureContent: boolean;
    };

export function readTracingSettings(env: NodeJS.ProcessEnv, agent: string): TracingSettings {
  if (isTrue(env.OTEL_SDK_DISABLED)) return { enabled: false };
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const enabled = exporter ? exporter !== "none" : Boolean(endpoint);
  if (!enabled) return { enabled: false };
  return {
    enabled: true,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || `switchboard-${agent}`,
    captureContent: isTrue(env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT),
  };
}

function isTrue(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === "true";
}
