export {
  contextProblems,
  isSummaryRequest,
  lastUserText,
  messageText,
  offeredToolNames,
  textToSummarize,
  toolPairProblems,
} from "./conversation.js";
export type { DialectName, RecordedCall } from "./dialects/index.js";
export { PROVIDER_NAMES, type ProviderName } from "./dialects/provider-env.js";
export { contextTooLong, httpError, LlmHttpError, unknownModel } from "./errors.js";
export { guardOutboundConnections, type OutboundGuard } from "./outbound-guard.js";
export {
  callTool,
  echo,
  type HeldReply,
  heldReply,
  recallUserMessages,
  replyFromToolResult,
  say,
  sequence,
  summarizeMatches,
} from "./replies.js";
export { type Rule, rules } from "./rules.js";
export { type ScriptedLlm, type ScriptedLlmOptions, startScriptedLlm } from "./server.js";
export { routeByAgentPrefix } from "./supervisor-rules.js";
export type { ChatCompletionRequest, ChatMessage, Script, ScriptReply } from "./types.js";
