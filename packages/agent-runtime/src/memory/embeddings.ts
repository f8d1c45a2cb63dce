import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { SwitchboardError } from "@switchboard/common";
import type { MemorySettings } from "./settings.js";

/**
 * The embeddings model memories are ranked with (EMBEDDINGS_PROVIDER, EMBEDDINGS_MODEL, as CAIPE's
 * RAG stack names them), through the provider's own LangChain class and the LLM's credentials.
 */
export async function createEmbeddings(
  settings: NonNullable<MemorySettings["embeddings"]>,
  env: NodeJS.ProcessEnv,
): Promise<EmbeddingsInterface> {
  const { AzureOpenAIEmbeddings, OpenAIEmbeddings } = await import("@langchain/openai");
  if (settings.provider === "openai") {
    if (!env.OPENAI_API_KEY) {
      throw new SwitchboardError("memory.config", "user", "EMBEDDINGS_PROVIDER=openai needs OPENAI_API_KEY.");
    }
    return new OpenAIEmbeddings({
      model: settings.model,
      apiKey: env.OPENAI_API_KEY,
      ...(env.OPENAI_BASE_URL ? { configuration: { baseURL: env.OPENAI_BASE_URL } } : {}),
    });
  }
  const missing = ["AZURE_OPENAI_API_KEY", "AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_API_VERSION"].filter(
    (name) => !env[name],
  );
  if (missing.length > 0) {
    throw new SwitchboardError(
      "memory.config",
      "user",
      `EMBEDDINGS_PROVIDER=azure-openai needs ${missing.join(", ")}.`,
    );
  }
  return new AzureOpenAIEmbeddings({
    azureOpenAIApiKey: env.AZURE_OPENAI_API_KEY,
    azureOpenAIEndpoint: env.AZURE_OPENAI_ENDPOINT,
    azureOpenAIApiVersion: env.AZURE_OPENAI_API_VERSION,
    azureOpenAIApiDeploymentName: settings.model,
  });
}
