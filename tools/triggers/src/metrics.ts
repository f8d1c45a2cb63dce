import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/**
 * The receiver's Prometheus metrics, served on GET /metrics. `waiting` counts, at each scrape, the runs
 * of every replica that wait for an approver (from MongoDB: the whole queue, not this replica's share).
 */
export function createTriggerMetrics(waitingRuns: () => Promise<number>) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    deliveries: new Counter({
      name: "switchboard_trigger_deliveries_total",
      help: "Webhook deliveries and schedule ticks by task and what became of them (accepted, duplicate, refused, ping).",
      labelNames: ["task", "outcome"] as const,
      registers,
    }),
    runs: new Counter({
      name: "switchboard_trigger_runs_total",
      help: "Triggered runs by task and how each turn ended (success, failed, input-required, declined), and those ended without their agent (lost, expired).",
      labelNames: ["task", "status"] as const,
      registers,
    }),
    running: new Gauge({
      name: "switchboard_trigger_runs_running",
      help: "Runs this replica is running now (its share of the queue).",
      registers,
    }),
    waiting: new Gauge({
      name: "switchboard_trigger_runs_waiting",
      help: "Runs whose change waits for an approver, across every replica.",
      registers,
      async collect() {
        this.set(await waitingRuns());
      },
    }),
    duration: new Histogram({
      name: "switchboard_trigger_run_seconds",
      help: "From a run's claim to its end.",
      labelNames: ["task", "status"] as const,
      buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers,
    }),
  };
}

export type TriggerMetrics = ReturnType<typeof createTriggerMetrics>;
