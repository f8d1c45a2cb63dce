/** The `LLM_PROVIDER` values, as @switchboard/llm reads them. */
export type ProviderName =
  | "openai"
  | "azure-openai"
  | "anthropic-claude"
  | "aws-bedrock"
  | "google-gemini"
  | "ollama";

export const PROVIDER_NAMES: readonly ProviderName[] = [
  "openai",
  "azure-openai",
  "anthropic-claude",
  "aws-bedrock",
  "google-gemini",
  "ollama",
];

/** A model name each provider would take, for scripts that match on `model`. */
const DEFAULT_MODELS: Record<ProviderName, string> = {
  openai: "gpt-4o-mini",
  "azure-openai": "gpt-4o-mini",
  "anthropic-claude": "claude-sonnet-4-5",
  "aws-bedrock": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
  "google-gemini": "gemini-2.5-flash",
  ollama: "llama3.1",
};

/**
 * The settings (CAIPE's names, and Switchboard's base URL additions) that point @switchboard/llm at
 * the scripted server over one provider's protocol.
 */
export function providerEnv(
  provider: ProviderName,
  options: { port: number; apiKey?: string; model?: string; openAiModel?: string },
): Record<string, string> {
  const base = `http://127.0.0.1:${options.port}`;
  const key = options.apiKey;
  const model =
    options.model ?? (provider === "openai" ? options.openAiModel : undefined) ?? DEFAULT_MODELS[provider];
  switch (provider) {
    case "openai":
      return {
        LLM_PROVIDER: provider,
        OPENAI_API_KEY: key ?? "sk-test",
        OPENAI_BASE_URL: `${base}/v1`,
        OPENAI_MODEL_NAME: model,
      };
    case "azure-openai":
      return {
        LLM_PROVIDER: provider,
        AZURE_OPENAI_API_KEY: key ?? "azure-test-key",
        AZURE_OPENAI_ENDPOINT: base,
        AZURE_OPENAI_DEPLOYMENT: model,
        AZURE_OPENAI_API_VERSION: "2024-10-21",
      };
    case "anthropic-claude":
      return {
        LLM_PROVIDER: provider,
        ANTHROPIC_API_KEY: key ?? "sk-ant-test",
        ANTHROPIC_BASE_URL: base,
        ANTHROPIC_MODEL_NAME: model,
      };
    case "aws-bedrock":
      // The Bedrock endpoint is service-specific, so an agent's own AWS_ENDPOINT_URL (moto) is kept.
      return {
        LLM_PROVIDER: provider,
        AWS_BEDROCK_MODEL_ID: model,
        AWS_REGION: "us-east-1",
        AWS_ACCESS_KEY_ID: key ?? "AKIATESTBEDROCK",
        AWS_SECRET_ACCESS_KEY: "test-bedrock-secret",
        AWS_ENDPOINT_URL_BEDROCK_RUNTIME: base,
      };
    case "google-gemini":
      return {
        LLM_PROVIDER: provider,
        GOOGLE_API_KEY: key ?? "gemini-test-key",
        GOOGLE_GEMINI_BASE_URL: base,
        GOOGLE_GEMINI_MODEL_NAME: model,
      };
    case "ollama":
      return { LLM_PROVIDER: provider, OLLAMA_BASE_URL: base, OLLAMA_MODEL: model };
  }
}
