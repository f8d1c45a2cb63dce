import { ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { Access } from "../authz/access.js";
import type { TurnContext } from "../context/turn-context.js";
import type { AgentTool } from "../tools/define-tool.js";
import { guardCallsMiddleware, offeredTools } from "./guard-calls.js";
import { toolResultsMiddleware } from "./tool-results.js";

/** Tools a graph of an agent's own runs itself, each call through the runtime's one guard. */
export interface GuardedTools {
  /** The schemas of the tools the graph's model is offered (not those that run only through a routing tool). */
  readonly tools: StructuredToolInterface[];
  has(name: string): boolean;
  /**
   * Runs one call as every agent's tool calls run (guard-calls.ts): the policy decides on the
   * turn's caller, a refusal is audited and answered to the model, a change waits for the user's
   * confirmation, and allowed changes (and `audited` tools) are on record.
   */
  call(toolCall: ToolCall, config: LangGraphRunnableConfig): Promise<ToolMessage>;
  /**
   * Called by the graph with the turn before each model call, before `tools` is read: tools that
   * can only be had for a signed-in user (an MCP server that lists them only with a user's token)
   * join here.
   */
  prepare?(turn: TurnContext | undefined): Promise<void>;
}

/** `tools` behind the guard `access` decides with: what GraphDeps.guardTools gives an agent's own graph. */
export function guardedTools(tools: AgentTool[], access: Access): GuardedTools {
  const byName = new Map(tools.map((entry) => [entry.tool.name, entry]));
  const wrap = guardCallsMiddleware(tools, access).wrapToolCall;
  const results = toolResultsMiddleware.wrapToolCall;
  if (!wrap || !results) throw new Error("the call guard has no wrapToolCall");
  return {
    tools: offeredTools(tools),
    has: (name) => byName.has(name),
    call: async (toolCall, config) => {
      const entry = byName.get(toolCall.name);
      if (!entry) throw new Error(`${toolCall.name} is not one of this graph's guarded tools`);
      // The guard reads only the call; state and runtime belong to createAgent's loop, not this graph.
      // The turn rides in the graph's run context (`config.context`), as createAgent's runtime has it.
      const request = {
        toolCall,
        tool: entry.tool,
        state: { messages: [] },
        runtime: { context: config.context, signal: config.signal },
      } as unknown as Parameters<typeof wrap>[0];
      // Inside the guard, as in the standard agent's graph: a tool that fails is answered to the model
      // (the turn goes on), and a long result is trimmed.
      const result = await wrap(request, (allowed) =>
        results(allowed, async (call) => {
          // The guard hands the tool bound to this call's context (AgentTool.forCall).
          const bound = (call.tool ?? entry.tool) as StructuredToolInterface;
          const output: unknown = await bound.invoke(call.toolCall.args, config);
          return new ToolMessage({
            // Text, or an MCP tool's content blocks as they came (the model reads them, trimming counts them).
            content: typeof output === "string" || Array.isArray(output) ? output : JSON.stringify(output),
            tool_call_id: toolCall.id ?? "",
            name: toolCall.name,
          });
        }),
      );
      if (!ToolMessage.isInstance(result))
        throw new Error(`${toolCall.name}: the guard answered with a command`);
      return result;
    },
  };
}
