export { ANSWER_WITHOUT_TOKENS_EXTENSION } from "./card.js";
export {
  boundedHistory,
  type ContextSummary,
  contextSummarizer,
  SUMMARY_PREFIX,
  type Summarize,
} from "./context-budget.js";
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
export { currentTurn, type Progress, type TurnContext } from "./turn-context.js";
