import { DynamicStructuredTool, type StructuredToolInterface } from "@langchain/core/tools";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Progress as McpProgress, Tool as McpToolDefinition } from "@modelcontextprotocol/sdk/types.js";
import { type Logger, SwitchboardError } from "@switchboard/common";
import type { ToolCallContext } from "../context/tool-call-context.js";
import type { AgentDefinition } from "../definition.js";
import type { AgentTool } from "../tools/define-tool.js";
import type { McpClientMethods, McpServerConnection } from "./connection.js";
import { makePortable } from "./portable-tools.js";
import { type McpSettings, readMcpSettings } from "./settings.js";

export interface McpTools {
  tools: AgentTool[];
  /** Ends every connection (stdio servers exit). */
  close(): Promise<void>;
}

interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
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
  },
): Promise<McpTools> {
  const settings = readMcpSettings(options.env, options.agent, definition.mcpServers);
  const configured = settings.servers.length + settings.readOnlyTools.size + settings.confirmTools.size;
  if (configured === 0) return { tools: [], close: async () => undefined };
  if (definition.graph) {
    throw new SwitchboardError(
      "runtime.mcp-config",
      "user",
      `The ${options.agent} agent runs a graph of its own and takes no MCP tools: unset ${settings.variables.servers} (give MCP servers to the agents it routes to).`,
    );
  }
  const forwarding = settings.servers.filter((server) => server.forwardUserToken).map(({ name }) => name);
  if (forwarding.length > 0 && options.env.AUTH_MODE?.trim() !== "jwt") {
    options.logger.warn(
      { mcpServers: forwarding },
      "MCP servers set to receive the user's token, but AUTH_MODE is not jwt: no call has a user token, so they get their static headers",
    );
  }
  return connectMcpTools(settings, {
    ...options,
    nativeToolNames: options.nativeTools.map(({ tool }) => tool.name),
  });
}

/**
 * Connects to every configured MCP server (all at once; any that cannot be started or reached fails
 * the start with its reason) and makes their tools agent tools: a tool its server does not mark
 * read-only asks the user first, unless `<AGENT>_MCP_READ_ONLY_TOOLS` names it, and one marked
 * read-only asks when `<AGENT>_MCP_CONFIRM_TOOLS` names it. Each call runs with its own context
 * (`AgentTool.forCall`): on the caller's own connection when the server receives the user's token,
 * and progress the server reports while the tool runs reaches the caller as the call's progress.
 */
export async function connectMcpTools(
  settings: McpSettings,
  options: { agent: string; logger: Logger; timeoutMs: number; nativeToolNames: string[] },
): Promise<McpTools> {
  // Loaded only here: an agent with no MCP server never holds the SDK (a few MB of memory each).
  const { McpServerConnection } = await import("./connection.js");
  const connections = settings.servers.map((server) => new McpServerConnection(server, options));
  const close = async () => {
    await Promise.all(connections.map((connection) => connection.close()));
  };
  try {
    const started = await Promise.allSettled(connections.map((connection) => connection.start()));
    const failures = started.flatMap((result) =>
      result.status === "rejected"
        ? [result.reason instanceof Error ? result.reason.message : String(result.reason)]
        : [],
    );
    if (failures.length > 0) {
      throw new SwitchboardError("runtime.mcp-unavailable", "user", failures.join("\n"));
    }
    const loaded = await Promise.all(
      connections.map(async (connection) => ({ connection, tools: await toolsOf(connection) })),
    );
    const tools = loaded.flatMap(({ connection, tools }) =>
      tools.map(({ tool, definition }) =>
        agentTool(tool, connection.name, settings, (ctx) => toolForCall(tool, definition, connection, ctx)),
      ),
    );
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
    if (loaded.length > 0)
      options.logger.info(
        {
          mcpServers: loaded.map(
            ({ connection, tools }) =>
              `${connection.name} (${tools.length} tools${connection.settings.forwardUserToken ? ", the user's token" : ""})`,
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

/** How the adapter loads a server's tools, at start-up and for each call alike. */
async function loadTools(
  connection: McpServerConnection,
  client: McpClientMethods,
): Promise<StructuredToolInterface[]> {
  const { loadMcpTools } = await import("@langchain/mcp-adapters");
  // loadMcpTools calls only listTools, callTool and readResource, which the client has.
  return loadMcpTools(connection.name, client as unknown as Client, {
    throwOnLoadError: true,
    prefixToolNameWithServerName: connection.settings.config.prefixToolNames,
    // Text, images and embedded resources all go to the model's message (trimmed there): nothing is
    // kept aside as an artifact, which would be stored in every checkpoint untrimmed.
    outputHandling: "content",
    // Asks the SDK to request progress notifications; reportingProgress passes them on.
    onProgress: () => undefined,
  });
}

/** The server's tools as the model is offered them, each with the MCP definition it was made from. */
async function toolsOf(
  connection: McpServerConnection,
): Promise<Array<{ tool: StructuredToolInterface; definition: McpToolDefinition }>> {
  const definitions = new Map<string, McpToolDefinition>();
  const listing: McpClientMethods = {
    ...connection.forCaller(undefined),
    listTools: async (...args) => {
      const page = await connection.listTools(...args);
      for (const definition of page.tools) definitions.set(definition.name, definition);
      return page;
    },
  };
  try {
    const tools = await loadTools(connection, listing);
    const prefix = connection.settings.config.prefixToolNames ? `${connection.name}__` : "";
    return tools.flatMap((tool) => {
      const definition = definitions.get(tool.name.slice(prefix.length));
      return definition ? [{ tool, definition }] : [];
    });
  } catch (error) {
    throw new SwitchboardError(
      "runtime.mcp-unavailable",
      "user",
      `MCP server "${connection.name}" connected but its tools could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * `offered` (the tool the model sees, renamed and with a portable schema) for one call: the adapter's
 * own call of its MCP tool, made on `ctx`'s caller's connection with its progress reported to `ctx`.
 */
async function toolForCall(
  offered: StructuredToolInterface,
  definition: McpToolDefinition,
  connection: McpServerConnection,
  ctx: ToolCallContext,
): Promise<StructuredToolInterface> {
  const client: McpClientMethods = {
    ...reportingProgress(connection.forCaller(ctx), connection.name, ctx),
    listTools: async () => ({ tools: [definition] }),
  };
  const [made] = await loadTools(connection, client);
  if (!(made instanceof DynamicStructuredTool))
    throw new Error(`MCP tool ${definition.name} could not be made`);
  return new DynamicStructuredTool({
    name: offered.name,
    description: offered.description,
    schema: offered.schema as DynamicStructuredTool["schema"],
    responseFormat: "content_and_artifact",
    metadata: (offered as { metadata?: Record<string, unknown> }).metadata,
    func: made.func,
  });
}

/**
 * A caller's connection as loadMcpTools sees it, with its tool call's progress notifications
 * reported to the call (they arrive from the transport).
 */
function reportingProgress(
  client: McpClientMethods,
  server: string,
  ctx: Pick<ToolCallContext, "report">,
): McpClientMethods {
  const callTool: McpClientMethods["callTool"] = (params, schema, requestOptions?: RequestOptions) => {
    const onprogress = (progress: McpProgress) => {
      requestOptions?.onprogress?.(progress);
      const counted = progress.total ? `${progress.progress}/${progress.total}` : `${progress.progress}`;
      ctx.report({
        text: `${params.name}: ${progress.message ?? counted}`,
        metadata: {
          kind: "tool-progress",
          tool: params.name,
          mcpServer: server,
          progress: progress.progress,
          ...(progress.total === undefined ? {} : { total: progress.total }),
        },
      });
    };
    return client.callTool(params, schema, {
      ...requestOptions,
      onprogress,
      resetTimeoutOnProgress: true,
    });
  };
  return { ...client, callTool };
}

function agentTool(
  tool: StructuredToolInterface,
  server: string,
  settings: McpSettings,
  forCall: (ctx: ToolCallContext) => Promise<StructuredToolInterface>,
): { agentTool: AgentTool; server: string } {
  const annotations = (tool as { metadata?: { annotations?: ToolAnnotations } }).metadata?.annotations ?? {};
  const asks = settings.confirmTools.has(tool.name)
    ? true
    : settings.readOnlyTools.has(tool.name)
      ? false
      : annotations.readOnlyHint !== true;
  if (!asks) return { agentTool: { tool, forCall }, server };
  const destructive = annotations.destructiveHint === true ? " (the server marks it destructive)" : "";
  return {
    agentTool: {
      tool,
      forCall,
      // Every argument follows in the question, whole (graph/guard-calls.ts).
      confirm: () => `Run ${tool.name} on the "${server}" MCP server${destructive}.`,
    },
    server,
  };
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
