import { randomBytes } from "node:crypto";
import { type Context, TraceFlags, trace } from "@opentelemetry/api";

const TRACE_ID = /^[0-9a-f]{32}$/;

/**
 * The context a turn's span starts in. A W3C `traceparent` on the request wins (the HTTP
 * instrumentation already continued it). Without one, a caller's `metadata.trace_id` (CAIPE's
 * supervisor sends its trace id so: a UUID's 32 hex digits) becomes the remote parent, so the turn
 * and everything beneath it land in the caller's trace.
 */
export function callerTraceContext(
  active: Context,
  headers: Record<string, unknown> | undefined,
  metadata: Record<string, unknown> | undefined,
): Context {
  if (headers?.traceparent) return active;
  const raw = metadata?.trace_id;
  if (typeof raw !== "string") return active;
  const traceId = raw.replaceAll("-", "").toLowerCase();
  if (!TRACE_ID.test(traceId) || /^0+$/.test(traceId)) return active;
  return trace.setSpanContext(active, {
    traceId,
    spanId: randomBytes(8).toString("hex"),
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
  });
}
