import { DynamicStructuredTool, type StructuredToolInterface } from "@langchain/core/tools";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Progress as McpProgress, Tool as McpToolDefinition } from "@modelcontextprotocol/sdk/types.js";
import { type Logger, SwitchboardError } from "@switchboard/common";
import type { ToolCallContext } from "../context/tool-call-context.js";
import type { AgentTool } from "../tools/define-tool.js";
import type { McpCaller, McpClientMethods, McpServerConnection } from "./connection.js";
import type { McpServerSettings } from "./settings.js";

/** Which of a server's tools an agent gets, under what names, and which of them ask first. */
export interface McpToolChoice {
  /** Put before each tool's name: the model is offered `<prefix><tool>`. */
  prefix?: string;
  /** The server's own names of the tools to take (all when absent); a name it does not serve is an error. */
  only?: string[];
  /**
   * Whether the tool (by the server's own name) asks the user first: true or false overrides the
   * server; undefined leaves the rule: a tool its server does not mark read-only asks. `hints` are
   * what the server says of it (MCP's annotations, read as the spec defines them).
   */
  asks?: (tool: string, hints: McpToolHints) => boolean | undefined;
}

/** What a server says of one of its tools (MCP tool annotations, with the spec's defaults). */
export interface McpToolHints {
  /** `readOnlyHint`: it changes nothing (default false). */
  readOnly: boolean;
  /** `destructiveHint` of a tool that is not read-only: it may destroy or overwrite (default true). */
  destructive: boolean;
}

interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
}

/** One tool as its server lists it: the adapter's tool and the MCP definition it was made from. */
interface ListedTool {
  tool: StructuredToolInterface;
  definition: McpToolDefinition;
}

/**
 * One MCP server connected (see McpServerConnection: reconnecting, a user's own connection when it
 * receives the user's token) and its tools listed once; `make` gives any number of agents their own
 * AgentTools from it. The one way MCP tools are made: an agent's own servers and a host's shared
 * ones alike.
 */
export class McpServerTools {
  private constructor(
    readonly connection: McpServerConnection,
    private readonly listed: ListedTool[],
  ) {}

  /**
   * Connects and lists the server's tools; a server that cannot be started, reached or listed is an
   * error naming it and what to check (nothing is left open).
   */
  static async open(
    settings: McpServerSettings,
    options: {
      agent: string;
      logger: Logger;
      timeoutMs: number;
      /**
       * Lists the tools on this caller's own connection, with their token, instead of the shared one:
       * for a server that lists its tools only to a signed-in user (it must receive the user's token).
       */
      listAs?: McpCaller;
    },
  ): Promise<McpServerTools> {
    // Loaded only here: an agent with no MCP server never holds the SDK (a few MB of memory each).
    const { McpServerConnection } = await import("./connection.js");
    const connection = new McpServerConnection(settings, options);
    try {
      if (!options.listAs) await connection.start();
      return new McpServerTools(connection, await toolsOf(connection, options.listAs));
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  get name(): string {
    return this.connection.name;
  }

  /** The server's own names of its tools. */
  get toolNames(): string[] {
    return this.listed.map(({ definition }) => definition.name);
  }

  /**
   * New AgentTools for one agent, named `<prefix><tool>` (not yet made portable: see makePortable),
   * each run for its call on the caller's connection with its progress reported to the call.
   */
  make(choice: McpToolChoice = {}): AgentTool[] {
    const prefix = choice.prefix ?? "";
    const only = choice.only ? new Set(choice.only) : undefined;
    if (only) {
      const served = new Set(this.toolNames);
      const unknown = [...only].filter((name) => !served.has(name));
      if (unknown.length > 0) {
        throw new SwitchboardError(
          "runtime.mcp-config",
          "user",
          `MCP server "${this.name}" serves no tool named ${unknown.join(", ")}; it serves: ${this.toolNames.join(", ") || "no tools"}.`,
        );
      }
    }
    return this.listed
      .filter(({ definition }) => !only || only.has(definition.name))
      .map(({ tool, definition }) => {
        const offered = new DynamicStructuredTool({
          name: `${prefix}${definition.name}`,
          description: tool.description,
          schema: tool.schema as DynamicStructuredTool["schema"],
          responseFormat: "content_and_artifact",
          metadata: (tool as { metadata?: Record<string, unknown> }).metadata,
          func: (tool as DynamicStructuredTool).func,
        });
        return agentTool(offered, this.name, choice.asks?.(definition.name, hintsOf(offered)), (ctx) =>
          toolForCall(offered, definition, this.connection, ctx),
        );
      });
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

/** How the adapter loads a server's tools, at start-up and for each call alike (by their own names). */
async function loadTools(
  connection: McpServerConnection,
  client: McpClientMethods,
): Promise<StructuredToolInterface[]> {
  const { loadMcpTools } = await import("@langchain/mcp-adapters");
  // loadMcpTools calls only listTools, callTool and readResource, which the client has.
  return loadMcpTools(connection.name, client as unknown as Client, {
    throwOnLoadError: true,
    prefixToolNameWithServerName: false,
    // Text, images and embedded resources all go to the model's message (trimmed there): nothing is
    // kept aside as an artifact, which would be stored in every checkpoint untrimmed.
    outputHandling: "content",
    // Asks the SDK to request progress notifications; reportingProgress passes them on.
    onProgress: () => undefined,
  });
}

/** The server's tools as the adapter makes them, each with the MCP definition it was made from. */
async function toolsOf(connection: McpServerConnection, caller?: McpCaller): Promise<ListedTool[]> {
  const definitions = new Map<string, McpToolDefinition>();
  const client = connection.forCaller(caller);
  const listing: McpClientMethods = {
    ...client,
    listTools: async (...args) => {
      const page = await client.listTools(...args);
      for (const definition of page.tools) definitions.set(definition.name, definition);
      return page;
    },
  };
  try {
    const tools = await loadTools(connection, listing);
    return tools.flatMap((tool) => {
      const definition = definitions.get(tool.name);
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

function annotationsOf(tool: StructuredToolInterface): ToolAnnotations {
  return (tool as { metadata?: { annotations?: ToolAnnotations } }).metadata?.annotations ?? {};
}

function hintsOf(tool: StructuredToolInterface): McpToolHints {
  const annotations = annotationsOf(tool);
  const readOnly = annotations.readOnlyHint === true;
  return { readOnly, destructive: !readOnly && annotations.destructiveHint !== false };
}

/** The agent tool: asks first when `asks` says so, else when its server does not mark it read-only. */
function agentTool(
  tool: StructuredToolInterface,
  server: string,
  asks: boolean | undefined,
  forCall: (ctx: ToolCallContext) => Promise<StructuredToolInterface>,
): AgentTool {
  const annotations = annotationsOf(tool);
  if (!(asks ?? annotations.readOnlyHint !== true)) return { tool, forCall };
  const destructive = annotations.destructiveHint === true ? " (the server marks it destructive)" : "";
  return {
    tool,
    forCall,
    // Every argument follows in the question, whole (graph/guard-calls.ts). The name is read when
    // asked: the one the model was offered, made portable.
    confirm: () => `Run ${tool.name} on the "${server}" MCP server${destructive}.`,
  };
}
