// biome-ignore-all lint/suspicious/noTemplateCurlyInString: MCP server lists refer to variables as ${VAR}, on purpose.
import { SwitchboardError } from "@switchboard/common";
import {
  checkMcpServers,
  interpolateMcpServer,
  type McpServerConfig,
  type McpServerInput,
  mcpVariablesFor,
  parseMcpServers,
  parseToolNames,
} from "@switchboard/contract";

/** One MCP server to connect, its `${VAR}` references filled in. */
export interface McpServerSettings {
  name: string;
  config: McpServerConfig;
  /** Values never to log (header values, a stdio server's env). */
  secrets: string[];
  /** Where it was configured, for messages: `JIRA_MCP_SERVERS`, or the agent definition. */
  source: string;
  /**
   * A call made for a signed-in user goes over a connection of that user, carrying their token as
   * `Authorization: Bearer …` (the server's `forwardUserToken`, else FORWARD_JWT_TO_MCP; HTTP and SSE only).
   */
  forwardUserToken: boolean;
}

/** CAIPE's setting: the user's token as a Bearer header on every HTTP MCP connection. */
export const FORWARD_JWT_TO_MCP = "FORWARD_JWT_TO_MCP";

export interface McpSettings {
  servers: McpServerSettings[];
  /** Tool names that run without asking, whatever their server says (`<AGENT>_MCP_READ_ONLY_TOOLS`). */
  readOnlyTools: Set<string>;
  /** Tool names that ask first, whatever their server says (`<AGENT>_MCP_CONFIRM_TOOLS`). */
  confirmTools: Set<string>;
  variables: ReturnType<typeof mcpVariablesFor>;
}

function configError(message: string): SwitchboardError {
  return new SwitchboardError("runtime.mcp-config", "user", message);
}

/**
 * The agent's MCP servers: those of its definition, then `<AGENT>_MCP_SERVERS` (a server of the same
 * name replaces the definition's), with `${VAR}` references filled from the env. A bad list, or a
 * reference to an unset variable, is a start-up error naming the variable and the server.
 */
export function readMcpSettings(
  env: NodeJS.ProcessEnv,
  agentName: string,
  defaults: Record<string, McpServerInput> = {},
  /**
   * Whether `<AGENT>_MCP_*` variables apply: not to an agent a host mounts, whose env is the host's
   * (a configured agent named like a packaged one must not take that agent's servers and credentials).
   */
  agentVariables = true,
): McpSettings {
  const variables = mcpVariablesFor(agentName);
  if (!agentVariables) env = withoutAgentMcpVariables(env, variables);
  const fromDefinition = checkMcpServers(defaults);
  if (!fromDefinition.ok) {
    throw configError(
      `The ${agentName} agent's definition has a bad mcpServers entry: ${fromDefinition.problems.join("; ")}`,
    );
  }
  const forwardByDefault = readForwardSetting(env.FORWARD_JWT_TO_MCP);
  const fromEnv = parseMcpServers(env[variables.servers]);
  if (!fromEnv.ok) throw configError(`${variables.servers} is invalid: ${fromEnv.problems.join("; ")}`);

  const merged = new Map<string, { config: McpServerConfig; source: string }>();
  for (const [name, config] of Object.entries(fromDefinition.servers)) {
    merged.set(name, { config, source: `the ${agentName} agent's definition` });
  }
  for (const [name, config] of Object.entries(fromEnv.servers))
    merged.set(name, { config, source: variables.servers });

  const servers = [...merged].map(([name, { config, source }]) =>
    serverSettings(name, config, source, env, forwardByDefault),
  );
  return {
    servers,
    readOnlyTools: new Set(parseToolNames(env[variables.readOnlyTools])),
    confirmTools: new Set(parseToolNames(env[variables.confirmTools])),
    variables,
  };
}

/**
 * One MCP server given on its own (a host's server, shared by its agents): checked, its `${VAR}`
 * references filled. `source` names where it was configured, for messages.
 */
export function readMcpServer(
  name: string,
  input: McpServerInput,
  env: NodeJS.ProcessEnv,
  source: string,
): McpServerSettings {
  const checked = checkMcpServers({ [name]: input });
  if (!checked.ok)
    throw configError(`MCP server "${name}" (${source}) is invalid: ${checked.problems.join("; ")}`);
  const config = checked.servers[name];
  if (!config) throw configError(`MCP server "${name}" (${source}) is invalid.`);
  return serverSettings(name, config, source, env, readForwardSetting(env.FORWARD_JWT_TO_MCP));
}

/** A server's `${VAR}` references filled from the env, its URL checked, whether it gets the user's token. */
function serverSettings(
  name: string,
  config: McpServerConfig,
  source: string,
  env: NodeJS.ProcessEnv,
  forwardByDefault: boolean,
): McpServerSettings {
  const filled = interpolateMcpServer(config, env);
  if (filled.missing.length > 0) {
    const names = filled.missing.join(", ");
    throw configError(
      `MCP server "${name}" (${source}) refers to ${names}, which ${filled.missing.length > 1 ? "are" : "is"} not set: set ${names}, or give a default as \${VAR:-default}.`,
    );
  }
  const server = filled.server;
  if (server.transport !== "stdio" && !isHttpUrl(server.url)) {
    const endpoint =
      server.transport === "sse"
        ? "SSE endpoint, e.g. https://mcp.example.com/sse"
        : "Streamable HTTP endpoint, e.g. https://mcp.example.com/mcp";
    throw configError(
      `MCP server "${name}" (${source}) has url ${JSON.stringify(server.url)}: give an http(s) URL of its ${endpoint}.`,
    );
  }
  // The global setting applies to HTTP and SSE servers (a stdio server takes credentials from its env).
  const forwardUserToken = server.transport !== "stdio" && (server.forwardUserToken ?? forwardByDefault);
  return { name, config: server, secrets: filled.secrets, source, forwardUserToken };
}

function withoutAgentMcpVariables(
  env: NodeJS.ProcessEnv,
  variables: ReturnType<typeof mcpVariablesFor>,
): NodeJS.ProcessEnv {
  const {
    [variables.servers]: _servers,
    [variables.readOnlyTools]: _readOnly,
    [variables.confirmTools]: _confirm,
    ...rest
  } = env;
  return rest;
}

function readForwardSetting(text: string | undefined): boolean {
  const value = text?.trim().toLowerCase() ?? "";
  if (value === "" || value === "false") return false;
  if (value === "true") return true;
  throw configError(
    `${FORWARD_JWT_TO_MCP} is ${JSON.stringify(text)}: set it to true (HTTP and SSE MCP servers receive the user's token) or false.`,
  );
}

function isHttpUrl(text: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}
