/**
 * Contract ports (CAIPE's), by agent name. An agent not listed here (a new one) needs only a port
 * of its own; a listed one must use its contract port.
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

/**
 * Ports of the hosts of agents made from configuration, by host name. CAIPE 0.6 serves its dynamic
 * agents on 8001 inside the container and publishes 8100; 8001 is the GitHub agent's here, so the
 * host listens on 8100 itself.
 */
export const HOST_PORTS: Readonly<Record<string, number>> = {
  "dynamic-agents": 8100,
};

/** The web chat's port (CAIPE's UI port). */
export const WEB_UI_PORT = 3000;

/** The MCP server's port (tools/mcp-server): beside the web chat's 3000 and the Slack relay's 3001. */
export const MCP_SERVER_PORT = 3002;
