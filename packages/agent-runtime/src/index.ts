export { ANSWER_WITHOUT_TOKENS_EXTENSION } from "./card.js";
export {
  boundedHistory,
  type ContextSummary,
  contextSummarizer,
  SUMMARY_PREFIX,
  type Summarize,
} from "./context-budget.js";
export type {
  ConversationHistory,
  ConversationSummary,
  ConversationTask,
} from "./conversation-history.js";
export type { DeletedConversation, DeletionCascade } from "./conversations.js";
export {
  type AgentDefinition,
  type AgentTool,
  changeTool,
  type GraphDeps,
  readTool,
  type SkillSpec,
  type TurnGraph,
} from "./definition.js";
export type { RelayedQuestion } from "./interrupts.js";
export { type RunningAgent, runAgent, type ServeOptions, serveAgent } from "./serve.js";
export { countUnavailableSubagent, observeSubagentHop } from "./subagent-hop.js";
export type { SubagentReport, SubagentSource } from "./subagents.js";
export { currentTurn, type Progress, type TurnContext } from "./turn-context.js";
