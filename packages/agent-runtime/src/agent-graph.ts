import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ToolMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { isGraphInterrupt } from "@langchain/langgraph";
import { getLogger, isSwitchboardError, type Logger } from "@switchboard/common";
import {
  type AnyAgentMiddleware,
  createAgent,
  createMiddleware,
  humanInTheLoopMiddleware,
  type InterruptOnConfig,
} from "langchain";
import { type ContextBudget, contextBudgetMiddleware, contextSummarizer } from "./context-budget.js";
import type { AgentTool, TurnGraph } from "./definition.js";

/** Tool output beyond this is cut before it reaches the model (and the checkpoint). */
export const MAX_TOOL_RESULT_CHARS = 8_000;

export interface AgentGraphOptions {
  model: BaseChatModel;
  tools: AgentTool[];
  systemPrompt: string;
  checkpointer: BaseCheckpointSaver;
  /** Bounds what the model is sent; unset: the whole conversation (offline mode, or turned off). */
  context?: ContextBudget;
  logger?: Logger;
}

/**
 * A LangGraph tool-calling agent: the model loop from `createAgent`, a conversation over its
 * context budget summarized before the model sees it, a confirmation pause before every tool that
 * changes something, and tool failures turned into messages the model can act on, except
 * configuration errors (e.g. a missing credential), which end the turn with their message.
 */
export function buildAgentGraph({
  model,
  tools,
  systemPrompt,
  checkpointer,
  context,
  logger = getLogger(),
}: AgentGraphOptions): TurnGraph {
  const interruptOn: Record<string, InterruptOnConfig> = {};
  for (const { tool, confirm } of tools) {
    if (confirm) {
      interruptOn[tool.name] = {
        allowedDecisions: ["approve", "reject"],
        description: (toolCall) => confirm(toolCall.args),
      };
    }
  }
  const middleware: AnyAgentMiddleware[] = [humanInTheLoopMiddleware({ interruptOn }), toolResultsMiddleware];
  if (context) middleware.unshift(contextBudgetMiddleware(contextSummarizer(model, context, logger)));
  const agent = createAgent({
    model,
    tools: tools.map(({ tool }) => tool),
    systemPrompt,
    checkpointer,
    middleware,
  });
  return agent.graph as unknown as TurnGraph;
}

const toolResultsMiddleware = createMiddleware({
  name: "SwitchboardToolResults",
  wrapToolCall: async (request, handler) => {
    try {
      const result = await handler(request);
      return ToolMessage.isInstance(result) ? trimmed(result) : result;
    } catch (error) {
      if (isGraphInterrupt(error)) throw error;
      if (isSwitchboardError(error) && error.category === "user") throw error;
      const reason = error instanceof Error ? error.message : String(error);
      return new ToolMessage({
        content: `${request.toolCall.name} failed: ${reason}`,
        tool_call_id: request.toolCall.id ?? "",
        name: request.toolCall.name,
        status: "error",
      });
    }
  },
});

function trimmed(message: ToolMessage): ToolMessage {
  const { content } = message;
  if (typeof content !== "string" || content.length <= MAX_TOOL_RESULT_CHARS) return message;
  const omitted = content.length - MAX_TOOL_RESULT_CHARS;
  message.content = `${content.slice(0, MAX_TOOL_RESULT_CHARS)}\n[… ${omitted} more characters omitted]`;
  return message;
}
