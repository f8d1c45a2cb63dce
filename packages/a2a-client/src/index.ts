export { AgentLink } from "./agent-link.js";
export { connectAgent } from "./client.js";
export { A2ACallError, type A2ACallErrorCode, isA2ACallError } from "./errors.js";
export { progressText, StreamedAnswer } from "./progress.js";
export {
  APPROVE,
  APPROVER_HEADER,
  DECLINE,
  decisionWord,
  type Question,
  readQuestion,
  shownArgsHashes,
} from "./question.js";
export { RELAYED_KEY, relayedMetadata, type StatusOrigin, statusOrigin } from "./relayed-status.js";
export { type AnswerSource, isSourcesPart, partsSources, SOURCES_PART_TYPE } from "./sources.js";
export { artifactText, messageText, partsText, partText, SWITCHBOARD_PART_TYPE } from "./text.js";
export { collectTurn, isFinalState, turnState } from "./turn.js";
export type {
  AgentCardSummary,
  AgentConnection,
  AgentSkillSummary,
  CallOptions,
  ConnectOptions,
  SendInput,
  TurnEvent,
  TurnResult,
  TurnState,
} from "./types.js";
