import { ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { Access } from "../authz/access.js";
import type { AgentTool } from "../tools/define-tool.js";
import { guardCallsMiddleware, offeredTools } from "./guard-calls.js";

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
}

/** `tools` behind the guard `access` decides with: what GraphDeps.guardTools gives an agent's own graph. */
export function guardedTools(tools: AgentTool[], access: Access): GuardedTools {
  const byName = new Map(tools.map((entry) => [entry.tool.name, entry]));
  const wrap = guardCallsMiddleware(tools, access).wrapToolCall;
  if (!wrap) throw new Error("the call guard has no wrapToolCall");
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
      const result = await wrap(request, async (allowed) => {
        // The guard hands the tool bound to this call's context (AgentTool.forCall).
        const bound = (allowed.tool ?? entry.tool) as StructuredToolInterface;
        const output: unknown = await bound.invoke(allowed.toolCall.args, config);
        return new ToolMessage({
          content: typeof output === "string" ? output : JSON.stringify(output),
          tool_call_id: toolCall.id ?? "",
          name: toolCall.name,
        });
      });
      if (!ToolMessage.isInstance(result))
        throw new Error(`${toolCall.name}: the guard answered with a command`);
      return result;
    },
  };
}
