import { checkpointErrors, checkpointReadDuration, checkpointWriteDuration } from "@switchboard/utils";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

/** The process's one Prometheus registry, served at GET /metrics. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });
// The checkpoint store's timings and failures (getCheckpointer() instruments its saver).
metricsRegistry.registerMetric(checkpointReadDuration);
metricsRegistry.registerMetric(checkpointWriteDuration);
metricsRegistry.registerMetric(checkpointErrors);

export const a2aRequests = new Counter({
  name: "switchboard_a2a_requests_total",
  help: "A2A requests by method and outcome (ok, error, rejected).",
  labelNames: ["method", "outcome"] as const,
  registers: [metricsRegistry],
});

export const turnDuration = new Histogram({
  name: "switchboard_turn_duration_seconds",
  help: "Duration of one agent turn, by how it ended (completed, input-required, failed, canceled).",
  labelNames: ["outcome"] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  registers: [metricsRegistry],
});

export const modelCalls = new Counter({
  name: "switchboard_model_calls_total",
  help: "Model (LLM) calls by agent, model and outcome (ok, error).",
  labelNames: ["agent", "model", "outcome"] as const,
  registers: [metricsRegistry],
});

export const modelCallDuration = new Histogram({
  name: "switchboard_model_call_duration_seconds",
  help: "Duration of one model call, by agent and model.",
  labelNames: ["agent", "model"] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80],
  registers: [metricsRegistry],
});

export const modelTokens = new Counter({
  name: "switchboard_model_tokens_total",
  help: "Tokens the model reported, by agent, model and type (input, output).",
  labelNames: ["agent", "model", "type"] as const,
  registers: [metricsRegistry],
});

export const toolCalls = new Counter({
  name: "switchboard_tool_calls_total",
  help: "Tool calls by agent, tool and outcome (ok, error).",
  labelNames: ["agent", "tool", "outcome"] as const,
  registers: [metricsRegistry],
});

export const subagentHopDuration = new Histogram({
  name: "switchboard_subagent_hop_duration_seconds",
  help: "One call to a subagent (a supervisor's hop), by subagent and outcome (the task state it ended in, or unreachable).",
  labelNames: ["subagent", "outcome"] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  registers: [metricsRegistry],
});

export const subagentHopErrors = new Counter({
  name: "switchboard_subagent_hop_errors_total",
  help: "Calls to a subagent that could not reach it or broke off, by subagent.",
  labelNames: ["subagent"] as const,
  registers: [metricsRegistry],
});
