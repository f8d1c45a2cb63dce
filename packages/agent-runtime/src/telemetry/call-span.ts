import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";

/** What a traced call may add to its span once it knows how it went. */
export interface CallSpan {
  setAttribute(key: string, value: string | number | boolean): void;
}

/**
 * Runs a call the agent makes to another service as an active client span (so the fetch span of
 * its request, and through its traceparent the other side, hang beneath it): ended when the call
 * ends, and marked an error (with `error.type`) when it throws, which is rethrown. A no-op span when
 * tracing is off. The supervisor's hops to its subagents are spans of this kind.
 */
export function tracedCall<T>(
  name: string,
  attributes: Record<string, string | number | boolean>,
  run: (span: CallSpan) => Promise<T>,
): Promise<T> {
  // Asked for here, not at module load: see model-calls.ts.
  return trace
    .getTracer("@switchboard/agent-runtime")
    .startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
      try {
        return await run(span);
      } catch (error) {
        span.setAttribute("error.type", error instanceof Error ? error.name : "Error");
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    });
}
