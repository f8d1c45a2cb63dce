import { isSpanContextValid, trace } from "@opentelemetry/api";

/**
 * The trace id an A2A 0.3 agent gets in `metadata.trace_id`: the active span's, as the 32 lowercase hex
 * digits CAIPE's Python agents pass on to Langfuse as their trace (`extract_trace_id_from_context`),
 * so their spans join the caller's trace. CAIPE's agents do not read `traceparent`. Undefined when no
 * span is active or no tracer is registered (the API's no-op span carries an invalid context).
 */
export function legacyTraceId(): string | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}
