import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

const SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** The relay's Prometheus metrics, served on GET /metrics. */
export function createRelayMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    events: new Counter({
      name: "switchboard_chat_events_total",
      help: "Chat messages and button presses by platform and what became of them (handled, duplicate, ignored, unlinked, refused).",
      labelNames: ["platform", "kind", "outcome"] as const,
      registers,
    }),
    turns: new Counter({
      name: "switchboard_chat_turns_total",
      help: "Turns relayed to the supervisor by platform and how they ended (completed, input-required, failed, unreachable, timeout, …).",
      labelNames: ["platform", "outcome"] as const,
      registers,
    }),
    firstUpdate: new Histogram({
      name: "switchboard_chat_first_update_seconds",
      help: "From a chat message to the placeholder posted in its thread.",
      labelNames: ["platform"] as const,
      buckets: SECONDS,
      registers,
    }),
    answer: new Histogram({
      name: "switchboard_chat_answer_seconds",
      help: "From a chat message to the turn's last message in its thread.",
      labelNames: ["platform", "outcome"] as const,
      buckets: SECONDS,
      registers,
    }),
  };
}

export type RelayMetrics = ReturnType<typeof createRelayMetrics>;
