export { type ChatModelChoice, type CreateChatModelOptions, createChatModel } from "./chat-model.js";
export { LLM_PROVIDERS, type LlmProvider, type LlmSettings, readLlmSettings } from "./env.js";
