import { type Logger, SwitchboardError } from "@switchboard/common";
import type { McpServerInput } from "@switchboard/contract";
import type { AgentTool } from "../tools/define-tool.js";
import type { McpCaller } from "./connection.js";
import { makePortable } from "./portable-tools.js";
import { McpServerTools, type McpToolChoice } from "./server-tools.js";
import { readMcpServer } from "./settings.js";
import { warnIfNotForwarding } from "./tools.js";

/** One MCP server connected once, its tools made per agent. */
export interface SharedMcpServer {
  name: string;
  /** The server's own names of its tools. */
  toolNames: string[];
  /**
   * New AgentTools for one agent: named `<prefix><tool>` made portable for every LLM provider,
   * only those `only` names (by the server's own names; one it does not serve is an error naming it
   * and what it serves), `asks(tool)` (by the server's own name) overriding whether one asks first.
   */
  tools(choice?: McpToolChoice): AgentTool[];
  /** Ends its connections (a stdio server exits): the agents given its tools must be gone. */
  close(): Promise<void>;
}

/**
 * Connects one MCP server (stdio, Streamable HTTP or SSE; `${VAR}` references filled from `env`)
 * for a host whose agents share it: one connection (and, for a server that receives the user's
 * token, one per user), its tools listed once. A server that cannot be started, reached or listed
 * is an error naming it (and `source`, where it was configured) and what to check.
 */
export async function connectMcpServer(
  server: { name: string; config: McpServerInput },
  options: {
    env: NodeJS.ProcessEnv;
    logger: Logger;
    timeoutMs: number;
    source?: string;
    /** Lists its tools on this caller's own connection (a server that lists them only to a signed-in user). */
    listAs?: McpCaller;
  },
): Promise<SharedMcpServer> {
  const settings = readMcpServer(
    server.name,
    server.config,
    options.env,
    options.source ?? "the host's MCP servers",
  );
  warnIfNotForwarding({ servers: [settings] }, options.env, options.logger);
  if (options.listAs && !settings.forwardUserToken) {
    throw new SwitchboardError(
      "runtime.mcp-config",
      "user",
      `MCP server "${server.name}" would list its tools with a user's token, which it does not receive: set "forwardUserToken": true.`,
    );
  }
  const connected = await McpServerTools.open(settings, {
    agent: "shared",
    logger: options.logger,
    timeoutMs: options.timeoutMs,
    ...(options.listAs ? { listAs: options.listAs } : {}),
  });
  options.logger.info(
    {
      mcpServer: `${connected.name} (${connected.toolNames.length} tools${settings.forwardUserToken ? ", the user's token" : ""}, ${settings.config.transport})`,
    },
    "MCP server connected, shared by the host's agents",
  );
  return {
    name: connected.name,
    toolNames: connected.toolNames,
    tools: (choice = {}) => {
      const tools = connected.make(choice);
      makePortable(
        tools.map(({ tool }) => tool),
        [],
      );
      return tools;
    },
    close: () => connected.close(),
  };
}
