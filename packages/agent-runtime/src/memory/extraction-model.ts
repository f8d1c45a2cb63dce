import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { createChatModel } from "@switchboard/llm";

/** Where each provider names its model, for FACT_EXTRACTION_MODEL to replace it. */
const MODEL_VARIABLES: Record<string, string[]> = {
  openai: ["OPENAI_MODEL_NAME"],
  "azure-openai": ["AZURE_OPENAI_DEPLOYMENT"],
  "anthropic-claude": ["ANTHROPIC_MODEL_NAME"],
  "aws-bedrock": ["AWS_BEDROCK_MODEL_ID"],
  "google-gemini": ["GOOGLE_GEMINI_MODEL_NAME", "GOOGLE_MODEL_NAME"],
  ollama: ["OLLAMA_MODEL", "OLLAMA_MODEL_NAME"],
};

/**
 * The model facts are extracted with: the agent's own, or FACT_EXTRACTION_MODEL on the same
 * provider (a smaller, cheaper model, as CAIPE suggests).
 */
export async function extractionModel(
  env: NodeJS.ProcessEnv,
  agentModel: BaseChatModel,
  modelName: string | undefined,
): Promise<BaseChatModel> {
  if (!modelName) return agentModel;
  const provider = env.LLM_PROVIDER ?? "openai";
  const overrides = Object.fromEntries((MODEL_VARIABLES[provider] ?? []).map((name) => [name, modelName]));
  return (await createChatModel({ env: { ...env, ...overrides } })).model;
}
