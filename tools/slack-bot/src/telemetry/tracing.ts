import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";

/** Whether traces are exported: the standard OTEL_* variables, as the agents read them. */
export function tracingEnabled(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return exporter ? exporter !== "none" : Boolean(endpoint);
}

/**
 * Starts the OpenTelemetry SDK (exporter and sampler from the OTEL_* variables) with fetch traced, so
 * the relay's call to the supervisor carries the turn's span as its parent (W3C traceparent) and the
 * supervisor's and subagents' spans join the relay's trace.
 */
export async function startTracing(serviceName: string): Promise<{ shutdown(): Promise<void> }> {
  const [{ NodeSDK }, { UndiciInstrumentation }] = await Promise.all([
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/instrumentation-undici"),
  ]);
  const sdk = new NodeSDK({
    serviceName,
    metricReaders: [],
    instrumentations: [new UndiciInstrumentation()],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}

/** Runs one relayed turn as the active span (a no-op span when tracing is off). */
export function inTurnSpan<T>(
  attributes: Record<string, string>,
  run: (span: { setAttribute(key: string, value: string): void }) => Promise<T>,
): Promise<T> {
  return trace
    .getTracer("@switchboard/slack-bot")
    .startActiveSpan("chat.turn", { kind: SpanKind.SERVER, attributes }, async (span) => {
      try {
        return await run(span);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    });
}
