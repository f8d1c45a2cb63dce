// The supervisor's hop metrics as plain definitions (HopTelemetry registers them), so the dashboard
// test in agent-runtime can check docs/observability against them without loading the supervisor.

export const HOP_DURATION = {
  name: "switchboard_subagent_hop_duration_seconds",
  help: "One call to a subagent (a supervisor's hop), by subagent and outcome (the task state it ended in, or unreachable).",
  labelNames: ["subagent", "outcome"] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
};

export const HOP_ERRORS = {
  name: "switchboard_subagent_hop_errors_total",
  help: "Calls to a subagent that could not reach it or broke off, by subagent.",
  labelNames: ["subagent"] as const,
};
