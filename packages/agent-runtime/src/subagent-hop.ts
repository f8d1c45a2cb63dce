import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { subagentHopDuration, subagentHopErrors } from "./telemetry/metrics.js";

/**
 * Runs one call to a subagent as a GenAI `invoke_agent` client span (active, so the A2A request's
 * fetch span, and through its traceparent the subagent's whole turn, hang beneath it) and records
 * its latency and outcome: the task state the subagent ended in; a throw counts as an error
 * (unreachable, or cut off) and is rethrown.
 */
export async function observeSubagentHop<T extends { state: string }>(
  subagent: string,
  run: () => Promise<T>,
): Promise<T> {
  const stop = subagentHopDuration.startTimer({ subagent });
  // Asked for here, not at module load: see model-calls.ts.
  return trace.getTracer("@switchboard/agent-runtime").startActiveSpan(
    `invoke_agent ${subagent}`,
    {
      kind: SpanKind.CLIENT,
      attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": subagent },
    },
    async (span) => {
      try {
        const result = await run();
        stop({ outcome: result.state });
        span.setAttribute("switchboard.turn.outcome", result.state);
        return result;
      } catch (error) {
        stop({ outcome: "unreachable" });
        subagentHopErrors.inc({ subagent });
        span.setAttribute("error.type", error instanceof Error ? error.name : "Error");
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** A call that never started: the subagent is known to be down (its card could not be fetched). */
export function countUnavailableSubagent(subagent: string): void {
  subagentHopErrors.inc({ subagent });
}
