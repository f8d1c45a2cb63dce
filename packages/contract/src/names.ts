import type { AgentPackageKind } from "./kinds.js";

/**
 * The names the fleet's parts derive from an agent's name, each rule written once: its package,
 * the supervisor's variables for it, its compose service and its MongoDB collections.
 */

/** The agent that routes to the others. */
export const SUPERVISOR = "supervisor";

/** The host of agents made from configuration (agents/dynamic-agents), as CAIPE names it. */
export const DYNAMIC_AGENTS = "dynamic-agents";

/** `@switchboard/agent-jira` → `jira`, `@switchboard/supervisor` → `supervisor`. */
export function agentNameFromPackage(packageName: string): string {
  return packageName.replace(/^@[^/]+\//, "").replace(/^agent-/, "");
}

/**
 * The supervisor's variable prefix for an agent, CAIPE's convention: `my-tool` → `MY_TOOL`, as in
 * `ENABLE_MY_TOOL` and `MY_TOOL_AGENT_URL`. A card's display name maps the same way: any run of
 * characters other than letters and digits is one `_` ("Hello World Agent" → `HELLO_WORLD_AGENT`).
 */
export function envPrefixFor(agentName: string): string {
  return agentName
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** Whether two agent names (package names, card names, ENABLE_ names) name the same agent. */
export function sameAgentName(a: string, b: string): boolean {
  return envPrefixFor(a) === envPrefixFor(b);
}

/** The variable that routes the supervisor to an agent: `ENABLE_JIRA`. */
export function enableVariableFor(agentName: string): string {
  return `ENABLE_${envPrefixFor(agentName)}`;
}

/** The variable that tells the supervisor where an agent is: `JIRA_AGENT_URL`. */
export function agentUrlVariableFor(agentName: string): string {
  return `${envPrefixFor(agentName)}_AGENT_URL`;
}

/**
 * The variable that tells the supervisor (and the web chat) where a host of configured agents is:
 * `dynamic-agents` → `DYNAMIC_AGENTS_URL`, CAIPE's name. Its agents are listed at `<url>/agents`.
 */
export function hostUrlVariableFor(hostName: string): string {
  return `${envPrefixFor(hostName)}_URL`;
}

/**
 * The switch that turns a host of configured agents on or off: `dynamic-agents` →
 * `DYNAMIC_AGENTS_ENABLED`, CAIPE's name (false: not run, nobody pointed at it).
 */
export function hostEnabledVariableFor(hostName: string): string {
  return `${envPrefixFor(hostName)}_ENABLED`;
}

/**
 * The compose service (and chart component) of a package under agents/: `supervisor`, a host by its
 * own name (`dynamic-agents`, as CAIPE names it), else `agent-<name>`.
 */
export function serviceNameFor(agentName: string, kind: AgentPackageKind = "agent"): string {
  if (kind === "host") return agentName;
  return agentName === SUPERVISOR ? SUPERVISOR : `agent-${agentName}`;
}

/** An agent's own MongoDB collections, all `<kind>_<agent>`, beside each other in one database. */
export interface AgentCollections {
  checkpoints: string;
  checkpointWrites: string;
  checkpointMessages: string;
  tasks: string;
  locks: string;
  /** Where A2A clients asked a task's updates to be pushed (webhooks). */
  pushConfigs: string;
  /** Every change and every denial, hash-chained (see agent-runtime's audit/). */
  audit: string;
  /** Tokens users linked for the agent's vendor, sealed (see agent-runtime's credentials/). */
  linkedTokens: string;
}

export function collectionsFor(agentName: string): AgentCollections {
  return {
    checkpoints: `checkpoints_${agentName}`,
    checkpointWrites: `checkpoint_writes_${agentName}`,
    checkpointMessages: `checkpoint_messages_${agentName}`,
    tasks: `tasks_${agentName}`,
    locks: `locks_${agentName}`,
    pushConfigs: `push_configs_${agentName}`,
    audit: `audit_${agentName}`,
    linkedTokens: `linked_tokens_${agentName}`,
  };
}
