import { readTracingSettings } from "@switchboard/agent-runtime/telemetry/tracing-settings";
import { evalInputError } from "../errors.js";

/** Where a configuration's own settings send its traces: an OTLP/HTTP traces URL and the headers it takes. */
export interface TraceDestination {
  url: string;
  headers: Record<string, string>;
}

/**
 * The trace backend a started fleet would export to without the evaluation (the one its report's
 * `EVAL_TRACE_URL` links open): the standard OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT and _HEADERS, as
 * the OpenTelemetry SDK reads them, else CAIPE's Langfuse settings, as the runtime reads them
 * (`readTracingSettings`). Undefined when that configuration exports no traces.
 */
export function traceDestination(env: NodeJS.ProcessEnv): TraceDestination | undefined {
  const settings = readTracingSettings(env, "eval");
  if (!settings.enabled) return undefined;
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (tracesEndpoint || endpoint) {
    const name = tracesEndpoint ? "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" : "OTEL_EXPORTER_OTLP_ENDPOINT";
    const url = tracesEndpoint || `${endpoint?.replace(/\/+$/, "")}/v1/traces`;
    if (!/^https?:\/\//i.test(url))
      throw evalInputError(
        `${name} must be an http(s) URL for the evaluation to pass the fleet's traces on.`,
      );
    const list = env.OTEL_EXPORTER_OTLP_TRACES_HEADERS?.trim() || env.OTEL_EXPORTER_OTLP_HEADERS?.trim();
    const headers = list ? otlpHeaders(list) : {};
    // Credentials in the URL become Basic credentials (as Node's http takes them; fetch refuses them),
    // so the URL kept, and any message naming it, holds none.
    const parsed = new URL(url);
    if ((parsed.username || parsed.password) && !headers.authorization) {
      const pair = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
    }
    parsed.username = "";
    parsed.password = "";
    return { url: parsed.toString(), headers };
  }
  return settings.langfuse
    ? { url: settings.langfuse.url, headers: { authorization: settings.langfuse.authorization } }
    : undefined;
}

/** OTLP's header list: `key=value` pairs split by commas, values percent-encoded (the SDK's reading). */
function otlpHeaders(list: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of list.split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const value = pair.slice(at + 1).trim();
    try {
      headers[pair.slice(0, at).trim().toLowerCase()] = decodeURIComponent(value);
    } catch {
      headers[pair.slice(0, at).trim().toLowerCase()] = value;
    }
  }
  return headers;
}
