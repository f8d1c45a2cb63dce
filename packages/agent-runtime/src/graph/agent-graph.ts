import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { getLogger, type Logger } from "@switchboard/common";
import { type AnyAgentMiddleware, createAgent } from "langchain";
import type { Access } from "../authz/access.js";
import type { TurnGraph } from "../definition.js";
import { memoryMiddleware, type TurnMemories } from "../memory/turn-memories.js";
import type { AgentTool } from "../tools/define-tool.js";
import { type ContextBudget, contextBudgetMiddleware, contextSummarizer } from "./context-budget.js";
import { guardCallsMiddleware, offeredTools } from "./guard-calls.js";
import { toolResultsFor } from "./tool-results.js";

export interface AgentGraphOptions {
  model: BaseChatModel;
  tools: AgentTool[];
  systemPrompt: string;
  checkpointer: BaseCheckpointSaver;
  /** Bounds what the model is sent; unset: the whole conversation (offline mode, or turned off). */
  context?: ContextBudget;
  logger?: Logger;
  /** Who may do what, and the audit trail: every tool call passes them. */
  access: Access;
  /** The caller's long-term memories, in each model call's system prompt, and `remember`. */
  memories?: TurnMemories;
  /** MAX_CONTEXT_TOKENS, which memories share with the conversation (undefined: unbounded). */
  maxContextTokens?: number;
}

/**
 * A LangGraph tool-calling agent: the model loop from `createAgent`, a conversation over its
 * context budget summarized before the model sees it, every tool call decided by the policy and a
 * confirmation pause before every tool that changes something (guard-calls.ts), and tool failures turned into messages the model can act on, except
 * configuration errors (e.g. a missing credential), which end the turn with their message.
 */
export function buildAgentGraph({
  model,
  tools,
  systemPrompt,
  checkpointer,
  context,
  logger = getLogger(),
  access,
  memories,
  maxContextTokens,
}: AgentGraphOptions): TurnGraph {
  const allTools = memories ? [...tools, ...memories.tools] : tools;
  const middleware: AnyAgentMiddleware[] = [guardCallsMiddleware(allTools, access), toolResultsFor(logger)];
  if (context)
    middleware.unshift(contextBudgetMiddleware(contextSummarizer(model, context, logger), context));
  // Innermost: it sees the messages the model is sent, after any summary.
  if (memories) middleware.push(memoryMiddleware(memories, maxContextTokens));
  const agent = createAgent({
    model,
    // The model is offered what is offered; the others run only through a routing tool (guard-calls.ts).
    tools: offeredTools(allTools),
    systemPrompt,
    checkpointer,
    middleware,
  });
  return agent.graph as unknown as TurnGraph;
}
