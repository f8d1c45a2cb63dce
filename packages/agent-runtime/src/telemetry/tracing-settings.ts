/**
 * Whether this agent exports OpenTelemetry traces, from the standard OTEL_* variables, else CAIPE's
 * ENABLE_TRACING=true with LANGFUSE_*. Off unless an OTLP endpoint is set (or OTEL_TRACES_EXPORTER
 * names an exporter, or Langfuse is configured), so an agent without one never loads the SDK;
 * OTEL_SDK_DISABLED=true turns it off whatever else is set.
 * Endpoint, protocol, headers, sampler and batching are read by the SDK itself.
 */
export type TracingSettings =
  | {
      enabled: false;
      /** Why tracing that was asked for (ENABLE_TRACING=true) is off, for a start-up warning. */
      problem?: string;
    }
  | {
      enabled: true;
      /** OTEL_SERVICE_NAME, else the one given (a host's), else `switchboard-<agent>`. */
      serviceName: string;
      /** Prompt and completion text on model spans: only with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true. */
      captureContent: boolean;
      /** Where traces go when CAIPE's Langfuse settings name it, rather than the OTEL_* variables. */
      langfuse?: LangfuseExport;
    };

/** Langfuse's OTLP endpoint and the Basic credentials its keys make. */
export interface LangfuseExport {
  /** `<LANGFUSE_HOST>/api/public/otel/v1/traces`. */
  url: string;
  /** `Basic base64(LANGFUSE_PUBLIC_KEY:LANGFUSE_SECRET_KEY)`. */
  authorization: string;
}

/** Langfuse Cloud, CAIPE's default when LANGFUSE_HOST is unset. */
const LANGFUSE_CLOUD = "https://cloud.langfuse.com";

export function readTracingSettings(
  env: NodeJS.ProcessEnv,
  agent: string,
  serviceName?: string,
): TracingSettings {
  if (isTrue(env.OTEL_SDK_DISABLED)) return { enabled: false };
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const langfuse = exporter || endpoint || !isTrue(env.ENABLE_TRACING) ? undefined : langfuseExport(env);
  const enabled = exporter ? exporter !== "none" : Boolean(endpoint || langfuse);
  if (!enabled) {
    return isTrue(env.ENABLE_TRACING) && !exporter
      ? {
          enabled: false,
          problem:
            "ENABLE_TRACING=true, but traces have nowhere to go: set LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY " +
            "(and LANGFUSE_HOST for your own Langfuse), or OTEL_EXPORTER_OTLP_ENDPOINT.",
        }
      : { enabled: false };
  }
  return {
    enabled: true,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || serviceName || `switchboard-${agent}`,
    captureContent: isTrue(env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT),
    ...(langfuse ? { langfuse } : {}),
  };
}

/**
 * CAIPE's tracing settings (ENABLE_TRACING=true with LANGFUSE_*): Langfuse takes OpenTelemetry traces
 * at /api/public/otel, with its key pair as Basic credentials. The OTEL_* variables win when set.
 */
function langfuseExport(env: NodeJS.ProcessEnv): LangfuseExport | undefined {
  const publicKey = env.LANGFUSE_PUBLIC_KEY?.trim();
  const secretKey = env.LANGFUSE_SECRET_KEY?.trim();
  if (!publicKey || !secretKey) return undefined;
  const host = (env.LANGFUSE_HOST?.trim() || LANGFUSE_CLOUD).replace(/\/+$/, "");
  return {
    url: `${host}/api/public/otel/v1/traces`,
    authorization: `Basic ${Buffer.from(`${publicKey}:${secretKey}`).toString("base64")}`,
  };
}

function isTrue(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === "true";
}
