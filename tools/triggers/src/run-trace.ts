import { createHash, randomBytes } from "node:crypto";
import {
  type Attributes,
  context,
  createContextKey,
  type Link,
  type Span,
  SpanStatusCode,
  TraceFlags,
  trace,
} from "@opentelemetry/api";
import type { IdGenerator } from "@switchboard/agent-runtime/telemetry/service-tracing";

interface Ids {
  traceId: string;
  spanId: string;
}

/** Set only while a run's own span starts: the ids runIdGenerator gives it. */
const RUN_SPAN_IDS = createContextKey("switchboard.triggers.run-span-ids");

/**
 * A run's trace: its id is the run id's 32 hex digits (the run history's `trace_id`), and the run's
 * own span's id is made from the run id too, so a later turn of the run (a decision, on any replica)
 * names it as its parent without storing it.
 */
export function runTraceIds(runId: string): Ids {
  const hex = runId.replace(/-/g, "").toLowerCase();
  const digest = createHash("sha256").update(runId).digest("hex");
  return {
    traceId: /^[0-9a-f]{32}$/.test(hex) && !/^0+$/.test(hex) ? hex : digest.slice(0, 32),
    spanId: digest.slice(32, 48),
  };
}

/** OpenTelemetry's random ids, except for a run's own span, which takes the ids its run names (runTraceIds). */
export const runIdGenerator: IdGenerator = {
  generateTraceId: () => runSpanIds()?.traceId ?? randomBytes(16).toString("hex"),
  generateSpanId: () => runSpanIds()?.spanId ?? randomBytes(8).toString("hex"),
};

function runSpanIds(): Ids | undefined {
  return context.active().getValue(RUN_SPAN_IDS) as Ids | undefined;
}

/** The W3C trace context a run's turns carry when this service exports no spans: the run's own span as parent. */
export function traceparentOf(runId: string): string {
  const { traceId, spanId } = runTraceIds(runId);
  return `00-${traceId}-${spanId}-01`;
}

export interface RunSpanOptions {
  runId: string;
  attributes: Attributes;
}

/**
 * Runs `work` in a span of the run's trace: the run's own (`trigger.run`, the root of the trace,
 * started as the delivery is taken and linked to the delivery's request) or a later turn's
 * (`trigger.decision`, beneath it), active while `work` goes on: with tracing on, the fetch
 * instrumentation carries it to the agent (else the runner sends traceparentOf: never both).
 */
export async function inRunSpan<T>(
  name: "trigger.run" | "trigger.decision",
  { runId, attributes }: RunSpanOptions,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const tracer = trace.getTracer("@switchboard/triggers");
  const ids = runTraceIds(runId);
  const active = context.active();
  let span: Span;
  if (name === "trigger.run") {
    const delivery = trace.getSpanContext(active);
    const links: Link[] = delivery ? [{ context: delivery }] : [];
    span = context.with(active.setValue(RUN_SPAN_IDS, ids), () =>
      tracer.startSpan(name, { root: true, attributes, links }, context.active()),
    );
  } else {
    const parent = trace.setSpanContext(active, { ...ids, traceFlags: TraceFlags.SAMPLED, isRemote: true });
    span = tracer.startSpan(name, { attributes }, parent);
  }
  try {
    return await context.with(trace.setSpan(active, span), () => work(span));
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}
