import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { agentLlmEnv, createChatModel, LLM_PROVIDERS, MODEL_VARIABLES } from "@switchboard/llm";

/**
 * The model facts are extracted with: the agent's own, or FACT_EXTRACTION_MODEL on the agent's
 * provider (a smaller, cheaper model, as CAIPE suggests); the agent's `<AGENT>_…` LLM settings apply.
 */
export async function extractionModel(
  env: NodeJS.ProcessEnv,
  /** The agent whose `<AGENT>_…` settings apply; undefined for one a host mounts (the host's env). */
  agent: string | undefined,
  agentModel: BaseChatModel,
  modelName: string | undefined,
): Promise<BaseChatModel> {
  if (!modelName) return agentModel;
  const own = agent ? agentLlmEnv(env, agent).env : env;
  const provider = LLM_PROVIDERS.find((name) => name === own.LLM_PROVIDER?.trim().toLowerCase()) ?? "openai";
  const overrides = Object.fromEntries(MODEL_VARIABLES[provider].map((name) => [name, modelName]));
  return (await createChatModel({ env: { ...own, ...overrides } })).model;
}
