import { randomBytes, randomUUID } from "node:crypto";
import { type AgentConnection, collectTurn, type TurnEvent, type TurnResult } from "@switchboard/a2a-client";
import type { EvalCase, Observation } from "../case.js";
import type { CaseVendors, VendorRecorder } from "../vendors/recorder.js";
import { observeEvent } from "./from-events.js";
import { observeTrace, traceComplete } from "./from-traces.js";
import type { TraceCollector } from "./traces.js";

/** Where a configuration's cases go: its agents, and the traces its fleet exports (if any). */
export interface Target {
  /** A connection to the named agent (`supervisor`, or an agent a case targets directly). */
  connect(agent: string): Promise<AgentConnection>;
  traces?: TraceCollector;
  /** How long to wait for a run's spans after its answer (they are exported in batches). */
  traceWaitMs?: number;
  /** Vendors recorded, replayed or forwarded: each run tells it whose requests follow. */
  vendors?: VendorRecorder;
  /** Each case's own vendors (fresh fakes seeded with its `vendors` state), behind `vendors`' proxies. */
  caseVendors?: CaseVendors;
}

/**
 * One run of a case: its messages in one new conversation, each turn streamed; a turn that ends
 * asking (a confirmation) is answered by the next message on the same task. The trace id is the
 * evaluation's own (`traceparent`), so the fleet's spans of this run are found by it.
 */
export async function runOnce(c: EvalCase, target: Target): Promise<Observation> {
  const traceId = randomBytes(16).toString("hex");
  const traceparent = `00-${traceId}-${randomBytes(8).toString("hex")}-01`;
  target.traces?.watch(traceId);
  const seen: Pick<Observation, "agents" | "tools"> = { agents: [], tools: [] };
  const started = performance.now();
  let result: TurnResult | undefined;
  let upstreams: Record<string, string> | undefined;
  try {
    upstreams = await target.caseVendors?.begin(c);
    target.vendors?.begin(c.key, upstreams);
    const agent = await target.connect(c.target);
    const contextId = randomUUID();
    for (const text of c.messages) {
      const asking = result?.state === "input-required" ? { taskId: result.taskId } : {};
      const events = agent.stream({ text, contextId, ...asking, headers: { traceparent } });
      result = await collectTurn(tap(events, (event) => observeEvent(event, c.target, seen)));
    }
  } catch (error) {
    target.traces?.forget(traceId);
    return {
      ...seen,
      answer: result?.text ?? "",
      state: "error",
      latencyMs: performance.now() - started,
      traceId,
      source: "events",
      error: error instanceof Error ? error.message : String(error),
    };
  } finally {
    target.vendors?.end();
    if (upstreams) await target.caseVendors?.end(c);
  }
  const latencyMs = performance.now() - started;
  const base = { answer: result?.text ?? "", state: result?.state ?? "unknown", latencyMs, traceId };
  const traces = target.traces;
  if (!traces) return { ...seen, ...base, source: "events" };
  const whole = await traces.waitFor(
    traceId,
    (spans) => traceComplete(spans, c.target),
    target.traceWaitMs ?? 5_000,
  );
  const spans = traces.spans(traceId);
  traces.forget(traceId);
  // A fleet that exports nothing (tracing off) is read from its events, as a running fleet may be.
  if (!whole) return { ...seen, ...base, source: "events" };
  return { ...base, ...observeTrace(spans), source: "traces" };
}

async function* tap(
  events: AsyncIterable<TurnEvent>,
  look: (event: TurnEvent) => void,
): AsyncIterable<TurnEvent> {
  for await (const event of events) {
    look(event);
    yield event;
  }
}
