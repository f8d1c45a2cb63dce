import { type Logger, SwitchboardError } from "@switchboard/common";
import type { AgentDefinition } from "../definition.js";
import type { AgentTool } from "../tools/define-tool.js";
import { makePortable } from "./portable-tools.js";
import { McpServerTools } from "./server-tools.js";
import { type McpSettings, readMcpSettings } from "./settings.js";

export interface McpTools {
  tools: AgentTool[];
  /** Ends every connection (stdio servers exit). */
  close(): Promise<void>;
}

/**
 * The MCP tools of an agent: its definition's servers and `<AGENT>_MCP_SERVERS`, connected (see
 * connectMcpTools). None configured: none, and nothing started.
 */
export async function mcpToolsFor(
  definition: AgentDefinition,
  options: {
    env: NodeJS.ProcessEnv;
    agent: string;
    logger: Logger;
    timeoutMs: number;
    nativeTools: AgentTool[];
    /** Whether `<AGENT>_MCP_*` variables apply (not to an agent a host mounts; see readMcpSettings). */
    agentVariables: boolean;
  },
): Promise<McpTools> {
  const settings = readMcpSettings(options.env, options.agent, definition.mcpServers, options.agentVariables);
  const configured = settings.servers.length + settings.readOnlyTools.size + settings.confirmTools.size;
  if (configured === 0) return { tools: [], close: async () => undefined };
  if (definition.graph) {
    throw new SwitchboardError(
      "runtime.mcp-config",
      "user",
      `The ${options.agent} agent runs a graph of its own and takes no MCP tools: unset ${settings.variables.servers} (give MCP servers to the agents it routes to).`,
    );
  }
  warnIfNotForwarding(settings, options.env, options.logger);
  return connectMcpTools(settings, {
    ...options,
    nativeToolNames: options.nativeTools.map(({ tool }) => tool.name),
  });
}

/** Servers set to receive the user's token get none when no call has one. */
export function warnIfNotForwarding(
  settings: Pick<McpSettings, "servers">,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): void {
  const forwarding = settings.servers.filter((server) => server.forwardUserToken).map(({ name }) => name);
  if (forwarding.length > 0 && env.AUTH_MODE?.trim() !== "jwt") {
    logger.warn(
      { mcpServers: forwarding },
      "MCP servers set to receive the user's token, but AUTH_MODE is not jwt: no call has a user token, so they get their static headers",
    );
  }
}

/**
 * Connects to every configured MCP server (all at once; any that cannot be started or reached fails
 * the start with its reason) and makes their tools agent tools (McpServerTools, as a host's shared
 * servers make theirs): a tool its server does not mark read-only asks the user first, unless
 * `<AGENT>_MCP_READ_ONLY_TOOLS` names it, and one marked read-only asks when
 * `<AGENT>_MCP_CONFIRM_TOOLS` names it. Each call runs with its own context (`AgentTool.forCall`): on
 * the caller's own connection when the server receives the user's token, and progress the server
 * reports while the tool runs reaches the caller as the call's progress.
 */
export async function connectMcpTools(
  settings: McpSettings,
  options: { agent: string; logger: Logger; timeoutMs: number; nativeToolNames: string[] },
): Promise<McpTools> {
  const started = await Promise.allSettled(
    settings.servers.map((server) => McpServerTools.open(server, options)),
  );
  const servers = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const close = async () => {
    await Promise.all(servers.map((server) => server.close()));
  };
  try {
    const failures = started.flatMap((result) =>
      result.status === "rejected"
        ? [result.reason instanceof Error ? result.reason.message : String(result.reason)]
        : [],
    );
    if (failures.length > 0) {
      throw new SwitchboardError("runtime.mcp-unavailable", "user", failures.join("\n"));
    }
    const tools = servers.flatMap((server) => {
      // `prefixToolNames`: tools named `<server>__<tool>`, which the override lists name them by.
      const prefix = server.connection.settings.config.prefixToolNames ? `${server.name}__` : "";
      const asks = (tool: string) =>
        settings.confirmTools.has(`${prefix}${tool}`)
          ? true
          : settings.readOnlyTools.has(`${prefix}${tool}`)
            ? false
            : undefined;
      return server.make({ prefix, asks }).map((agentTool) => ({ agentTool, server: server.name }));
    });
    checkNames(tools, options.nativeToolNames, settings);
    const renamed = makePortable(
      tools.map(({ agentTool }) => agentTool.tool),
      options.nativeToolNames,
    );
    if (renamed.size > 0)
      options.logger.info(
        { renamedTools: Object.fromEntries(renamed) },
        "MCP tools renamed for every LLM provider's rules",
      );
    if (servers.length > 0)
      options.logger.info(
        {
          mcpServers: servers.map(
            (server) =>
              `${server.name} (${server.toolNames.length} tools${server.connection.settings.forwardUserToken ? ", the user's token" : ""})`,
          ),
        },
        "MCP servers connected",
      );
    return { tools: tools.map(({ agentTool }) => agentTool), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Tool names must be unique, and the override lists must name tools that exist. */
function checkNames(
  tools: Array<{ agentTool: AgentTool; server: string }>,
  nativeToolNames: string[],
  settings: McpSettings,
): void {
  const owner = new Map<string, string>(nativeToolNames.map((name) => [name, "the agent's own tools"]));
  for (const { agentTool, server } of tools) {
    const name = agentTool.tool.name;
    const first = owner.get(name);
    if (first) {
      throw new SwitchboardError(
        "runtime.mcp-config",
        "user",
        `Two tools are named ${name}: in ${first} and on MCP server "${server}". Set "prefixToolNames": true on "${server}" (its tools become ${server}__<tool>).`,
      );
    }
    owner.set(name, `MCP server "${server}"`);
  }
  const served = new Set(tools.map(({ agentTool }) => agentTool.tool.name));
  for (const [variable, names] of [
    [settings.variables.readOnlyTools, settings.readOnlyTools],
    [settings.variables.confirmTools, settings.confirmTools],
  ] as const) {
    const unknown = [...names].filter((name) => !served.has(name));
    if (unknown.length > 0) {
      throw new SwitchboardError(
        "runtime.mcp-config",
        "user",
        `${variable} names ${unknown.join(", ")}, which no MCP server of this agent serves; its MCP tools are: ${[...served].join(", ") || "none"}.`,
      );
    }
  }
  const both = [...settings.readOnlyTools].filter((name) => settings.confirmTools.has(name));
  if (both.length > 0) {
    throw new SwitchboardError(
      "runtime.mcp-config",
      "user",
      `${both.join(", ")} ${both.length > 1 ? "are" : "is"} in both ${settings.variables.readOnlyTools} and ${settings.variables.confirmTools}: keep each tool in one.`,
    );
  }
}
