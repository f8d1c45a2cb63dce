// The providers' tool rules (one table, in @switchboard/common so test-llm can use it too).
export {
  type OfferedTool,
  PORTABLE_FORMATS,
  PORTABLE_SCHEMA_KEYWORDS,
  PORTABLE_TOOL_NAME,
  PROVIDER_TOOL_RULES,
  type ProviderToolRules,
  type ToolRulesProvider,
  toolNameAllowed,
  toolProblems,
  toolSchemaProblems,
} from "@switchboard/common";
export {
  type AgentLlmEnv,
  agentLlmEnv,
  agentVariable,
  MODEL_VARIABLES,
  readAgentLlmSettings,
} from "./agent-env.js";
export { type ChatModelChoice, type CreateChatModelOptions, createChatModel } from "./chat-model.js";
export {
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_SECONDS,
  LLM_PROVIDERS,
  LLM_VARIABLES,
  type LlmProvider,
  type LlmSettings,
  readLlmSettings,
} from "./env.js";
export { LLM_ERROR, providerLabel } from "./failures.js";
