import { checkpointDuration, checkpointErrors } from "@switchboard/utils";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

/** The process's one Prometheus registry, served at GET /metrics. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });
// The checkpoint store's timings and failures (getCheckpointer() instruments its saver).
metricsRegistry.registerMetric(checkpointDuration);
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
