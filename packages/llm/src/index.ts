export {
  type AgentLlmEnv,
  agentLlmEnv,
  agentVariable,
  MODEL_VARIABLES,
  readAgentLlmSettings,
} from "./agent-env.js";
export { type ChatModelChoice, type CreateChatModelOptions, createChatModel } from "./chat-model.js";
export { LLM_PROVIDERS, LLM_VARIABLES, type LlmProvider, type LlmSettings, readLlmSettings } from "./env.js";
