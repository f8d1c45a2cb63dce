import { type AgentMetrics, tracedCall } from "@switchboard/agent-runtime";
import { HOP_DURATION, HOP_ERRORS } from "./hop-metrics.js";

/**
 * The supervisor's hops to its subagents as metrics (latency by outcome, calls that could not reach
 * the subagent) in its /metrics, and as GenAI `invoke_agent` client spans when tracing is on.
 */
export class HopTelemetry {
  private readonly duration;
  private readonly errors;

  constructor(metrics: AgentMetrics) {
    this.duration = metrics.histogram(HOP_DURATION);
    this.errors = metrics.counter(HOP_ERRORS);
  }

  /**
   * Runs one call to a subagent as a span (the subagent's whole turn hangs beneath it) and records
   * its latency and outcome: the task state the subagent ended in; a throw counts as an error
   * (unreachable, or cut off) and is rethrown.
   */
  observe<T extends { state: string }>(subagent: string, run: () => Promise<T>): Promise<T> {
    const stop = this.duration.startTimer({ subagent });
    const attributes = { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": subagent };
    return tracedCall(`invoke_agent ${subagent}`, attributes, async (span) => {
      try {
        const result = await run();
        stop({ outcome: result.state });
        span.setAttribute("switchboard.turn.outcome", result.state);
        return result;
      } catch (error) {
        stop({ outcome: "unreachable" });
        this.errors.inc({ subagent });
        throw error;
      }
    });
  }

  /** A call that never started: the subagent is known to be down (its card could not be fetched). */
  countUnavailable(subagent: string): void {
    this.errors.inc({ subagent });
  }
}
