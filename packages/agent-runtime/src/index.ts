export type { DeletedConversation, DeletionCascade } from "./conversations/deletion.js";
export type {
  ConversationHistory,
  ConversationSummary,
  ConversationTask,
} from "./conversations/history.js";
export type { AgentDefinition, GraphDeps, SkillSpec, TurnGraph } from "./definition.js";
export {
  boundedHistory,
  type ContextSummary,
  contextSummarizer,
  SUMMARY_PREFIX,
  type Summarize,
} from "./graph/context-budget.js";
export { ANSWER_WITHOUT_TOKENS_EXTENSION } from "./http/card.js";
export { type RunningAgent, runAgent, type ServeOptions, serveAgent } from "./serve.js";
export { countUnavailableSubagent, observeSubagentHop } from "./subagent-hop.js";
export type { SubagentReport, SubagentSource } from "./subagents.js";
export { type AgentTool, changeTool, defineTool, readTool, type ToolSpec } from "./tools/define-tool.js";
export type { RelayedQuestion } from "./turn/interrupts.js";
export { currentTurn, type Progress, type TurnContext } from "./turn/turn-context.js";
export type { FailureNames } from "./vendor/describe.js";
export type { FailureKind, VendorFailure } from "./vendor/failure.js";
export { HttpStatusError, type JsonRequest, requestJson } from "./vendor/http-json.js";
export { VendorClient, type VendorSpec } from "./vendor/vendor-client.js";
