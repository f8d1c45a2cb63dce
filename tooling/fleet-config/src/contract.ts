/**
 * Contract ports from DESIGN.md (CAIPE's), by agent name. An agent not listed here (a new one)
 * needs only a port of its own; a listed one must use its contract port.
 */
export const CONTRACT_PORTS: Readonly<Record<string, number>> = {
  supervisor: 8000,
  github: 8001,
  weather: 8002,
  backstage: 8003,
  argocd: 8004,
  confluence: 8005,
  jira: 8006,
  komodor: 8007,
  pagerduty: 8008,
  slack: 8009,
  splunk: 8010,
  webex: 8011,
  aws: 8012,
  petstore: 8013,
  gitlab: 8014,
  netutils: 8015,
  victorops: 8016,
};

/** The compose service of an agent: `supervisor`, else `agent-<name>`. */
export function serviceNameFor(agentName: string): string {
  return agentName === "supervisor" ? "supervisor" : `agent-${agentName}`;
}

/** The supervisor's variable prefix for an agent: `my-tool` → `MY_TOOL` (ENABLE_MY_TOOL, MY_TOOL_AGENT_URL). */
export function envPrefixFor(agentName: string): string {
  return agentName.toUpperCase().replaceAll("-", "_");
}

/**
 * Variables documented in .env.example ahead of the code that reads them (e.g. while an issue is
 * under way). The check tolerates these being unread; delete each once the code reads it.
 */
export const DOCUMENTED_AHEAD: readonly string[] = [];
