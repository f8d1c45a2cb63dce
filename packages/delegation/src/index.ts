export { askSubagent, type HopOptions, type HopResult, type Hops } from "./delegate.js";
export { buildDelegatingGraph, callAgentTool, type DelegatingDeps } from "./graph.js";
export { type HopCredentials, hopCredentials, readHopCredentials } from "./hop-credentials.js";
export { HOP_DURATION, HOP_ERRORS } from "./hop-metrics.js";
export { HopTelemetry } from "./hop-telemetry.js";
export {
  Roster,
  type RosterOptions,
  type Subagent,
  type SubagentReport,
  type SubagentStatus,
} from "./roster.js";
export type { SubagentConfig } from "./subagent-config.js";
export { subagentsPrompt } from "./subagents-prompt.js";
