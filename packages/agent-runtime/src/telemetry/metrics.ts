import type { CheckpointMetrics } from "@switchboard/utils";
import {
  Counter,
  type CounterConfiguration,
  collectDefaultMetrics,
  Histogram,
  type HistogramConfiguration,
  Registry,
} from "prom-client";

/**
 * Metrics of an agent's own, served on its GET /metrics beside the runtime's (the supervisor times
 * its hops to subagents this way). Each is registered once, when the agent starts.
 */
export interface AgentMetrics {
  counter<L extends string>(config: Omit<CounterConfiguration<L>, "registers">): Counter<L>;
  histogram<L extends string>(config: Omit<HistogramConfiguration<L>, "registers">): Histogram<L>;
}

/** One served agent's Prometheus registry and the runtime's metrics in it. */
export type RuntimeMetrics = ReturnType<typeof createMetrics>;

/**
 * A registry for one served agent, with the runtime's metrics, its own checkpointer's (its handle's,
 * labelled by agent) and, unless a host reports them once for all its agents (`processMetrics:
 * false`), the process's default metrics. One per agent, so several agents in one process each serve
 * their own /metrics.
 */
export function createMetrics(checkpoints: CheckpointMetrics, { processMetrics = true } = {}) {
  const registry = new Registry();
  // Each collector starts an event-loop delay monitor of its own (~360 KB): one per process is enough.
  if (processMetrics) collectDefaultMetrics({ register: registry });
  registry.registerMetric(checkpoints.readDuration);
  registry.registerMetric(checkpoints.writeDuration);
  registry.registerMetric(checkpoints.errors);
  const registers = [registry];
  const agentMetrics: AgentMetrics = {
    counter: (config) => new Counter({ ...config, registers }),
    histogram: (config) => new Histogram({ ...config, registers }),
  };
  return {
    registry,
    /** What an agent registers metrics of its own through. */
    agentMetrics,
    a2aRequests: new Counter({
      name: "switchboard_a2a_requests_total",
      help: "A2A requests by method and outcome (ok, error, rejected).",
      labelNames: ["method", "outcome"] as const,
      registers,
    }),
    turnDuration: new Histogram({
      name: "switchboard_turn_duration_seconds",
      help: "Duration of one agent turn, by how it ended (completed, input-required, failed, canceled).",
      labelNames: ["outcome"] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    }),
    modelCalls: new Counter({
      name: "switchboard_model_calls_total",
      help: "Model (LLM) calls by agent, model and outcome (ok, error).",
      labelNames: ["agent", "model", "outcome"] as const,
      registers,
    }),
    modelCallDuration: new Histogram({
      name: "switchboard_model_call_duration_seconds",
      help: "Duration of one model call, by agent and model.",
      labelNames: ["agent", "model"] as const,
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80],
      registers,
    }),
    modelTokens: new Counter({
      name: "switchboard_model_tokens_total",
      help: "Tokens the model reported, by agent, model and type (input, output).",
      labelNames: ["agent", "model", "type"] as const,
      registers,
    }),
    modelCacheTokens: new Counter({
      name: "switchboard_model_cache_tokens_total",
      help: "Input tokens the provider's prompt cache served (type=read) or stored (type=creation), by agent and model; part of the input tokens of switchboard_model_tokens_total.",
      labelNames: ["agent", "model", "type"] as const,
      registers,
    }),
    toolCalls: new Counter({
      name: "switchboard_tool_calls_total",
      help: "Tool calls by agent, tool and outcome (ok, error).",
      labelNames: ["agent", "tool", "outcome"] as const,
      registers,
    }),
  };
}
