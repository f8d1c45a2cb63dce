export type { User } from "@a2a-js/sdk/server";
// Agents' entries (and generated ones) start through the runtime; the rule itself is common's.
export { runProcess } from "@switchboard/common";
export { callerOf } from "./auth/bearer.js";
export { AuthenticatedCaller, approverOf, threadIdFor, tokenOf } from "./auth/caller.js";
export { HOP_LIFETIME_SECONDS, HopTokenIssuer, hopAudience } from "./auth/hop-token.js";
export { type AuthzDecision, PolicyEngine } from "./authz/engine.js";
export { type PolicyTexts, parsePolicies } from "./authz/policy-set.js";
export { type LoadedPolicies, loadPolicies } from "./authz/policy-source.js";
export { type Principal, principalOf } from "./authz/principal.js";
export type { AuthzAction, AuthzQuestion, ToolResource } from "./authz/request.js";
export { type AuthzSettings, readAuthzSettings } from "./authz/settings.js";
export type { CallCredential, ToolCallContext } from "./context/tool-call-context.js";
export {
  type AnswerData,
  type Progress,
  requireTurn,
  type TurnContext,
  turnOf,
} from "./context/turn-context.js";
export type { DeletedConversation, DeletionHook } from "./conversations/deletion.js";
export type {
  ConversationHistory,
  ConversationSummary,
  ConversationTask,
} from "./conversations/history.js";
export type { AgentDefinition, GraphDeps, SkillSpec, TurnGraph } from "./definition.js";
export { type RuntimeSettings, readRuntimeSettings } from "./env.js";
export type { AgentHost, AgentRoutes, RouteHandler } from "./extension.js";
export {
  boundedHistory,
  type ContextBudget,
  type ContextSummary,
  contextSummarizer,
  retryWhenTooLong,
  SUMMARY_PREFIX,
  type Summarize,
} from "./graph/context-budget.js";
export type { GuardedTools } from "./graph/guarded-tools.js";
export { MAX_TOOL_RESULT_CHARS } from "./graph/tool-results.js";
export { ANSWER_WITHOUT_TOKENS_EXTENSION } from "./http/card.js";
export type { McpToolChoice, McpToolHints } from "./mcp/server-tools.js";
export { connectMcpServer, type SharedMcpServer } from "./mcp/shared-server.js";
export type { Memory } from "./memory/memory-book.js";
export { MEMORIES_HEADER, passOnMemories } from "./memory/passed-on.js";
export { lastUserText, roomLeft, type TurnMemories } from "./memory/turn-memories.js";
export type { ForgottenUser, UserData } from "./memory/user-data.js";
export { type MountedAgent, type MountOptions, mountAgent } from "./mount.js";
export { type GuardedConnectorOptions, guardedConnector } from "./network/guarded-connector.js";
export {
  isPublicAddress,
  type NetworkGuardRule,
  namesPrivateHost,
  privateHostError,
  privateNameError,
  publicAddresses,
  publicOnlyLookup,
} from "./network/network-guard.js";
export { type Undici, undici } from "./network/undici.js";
export { type RunningAgent, runAgent, type ServeOptions, serveAgent } from "./serve.js";
export { type CallSpan, tracedCall } from "./telemetry/call-span.js";
export type { AgentMetrics } from "./telemetry/metrics.js";
export {
  type AgentTool,
  defineRoutingTool,
  defineTool,
  type RoutedCall,
  type RoutingToolSpec,
  type ToolSpec,
} from "./tools/define-tool.js";
export {
  BUDGET_HEADER,
  type Budget,
  chargedSpend,
  formatBudget,
  type HopBudget,
  SPEND_METADATA_KEY,
  type Spend,
} from "./turn/budget.js";
export { type DecisionAnswer, readDecision } from "./turn/decision.js";
export type { RelayedAnswer, RelayedQuestion } from "./turn/interrupts.js";
export type { FailureNames } from "./vendor-client/describe.js";
export type { FailureKind, VendorFailure, VendorReading } from "./vendor-client/failure.js";
export { HttpStatusError, type JsonRequest, requestJson } from "./vendor-client/http-json.js";
export { dispatcherFor, httpsAgentFor, verifiesTls, warnIfTlsUnverified } from "./vendor-client/tls.js";
export { VendorClient, type VendorSpec } from "./vendor-client/vendor-client.js";
