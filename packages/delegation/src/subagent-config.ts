/** A subagent a delegating agent was told about (the supervisor: ENABLE_<AGENT>=true plus where it lives). */
export interface SubagentConfig {
  /** Lowercase name from the variable: ENABLE_JIRA → jira, ENABLE_MY_TOOL → my_tool. */
  name: string;
  /** The variable prefix, e.g. JIRA; named in log lines and messages. */
  prefix: string;
  url: string;
  /**
   * The vendor whose linked tokens the supervisor passes on to this agent: its own name (ENABLE_GITHUB
   * takes github tokens), or `<AGENT>_AGENT_LINKED_VENDOR`. Never what the agent says of itself.
   */
  vendor: string;
  /**
   * Named in AUTH_FORWARD_USER_TOKEN_TO: the agent is handed the user's own identity-provider token
   * (for a vendor that trusts the provider: AWS web identity, FORWARD_JWT_TO_MCP) in place of a hop
   * token signed for it alone.
   */
  forwardUserToken: boolean;
  /** What its card must be named (default: `name`), for an agent whose display name is not its name. */
  cardName?: string;
  /**
   * The host whose directory listed it (the dynamic-agents host): its card is read with a directory
   * token for that host, made anew for each read, since a team's agent shows its card to no one else.
   */
  directory?: string;
  /**
   * Where the operator configured it, as log lines name it: what enabled it and what gave its URL
   * (default: `ENABLE_<PREFIX>` and `<PREFIX>_AGENT_URL`).
   */
  configuredBy?: { enabled: string; url: string };
}
