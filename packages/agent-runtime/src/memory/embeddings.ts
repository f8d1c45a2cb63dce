import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { SwitchboardError } from "@switchboard/common";
import { z } from "zod";
import type { EmbeddingsSettings } from "./settings.js";

// The package's `./embeddings` entry: the knowledge base embeds through the same providers.
export { type EmbeddingsSettings, readEmbeddingsSettings } from "./settings.js";

function configError(message: string): SwitchboardError {
  return new SwitchboardError("memory.config", "user", message);
}

function httpUrl(value: string, variable: string, provider: string): string {
  if (!z.url({ protocol: /^https?$/ }).safeParse(value).success)
    throw configError(
      `EMBEDDINGS_PROVIDER=${provider}: ${variable} must be an http(s) URL such as http://localhost:11434.`,
    );
  return value.replace(/\/+$/, "");
}

/**
 * The embeddings model memories are ranked (and knowledge is searched) with (EMBEDDINGS_PROVIDER, EMBEDDINGS_MODEL, as CAIPE's
 * RAG stack names them), through the provider's own LangChain class and the LLM's credentials.
 */
export async function createEmbeddings(
  settings: EmbeddingsSettings,
  env: NodeJS.ProcessEnv,
): Promise<EmbeddingsInterface> {
  switch (settings.provider) {
    case "openai":
    case "azure-openai":
      return openAiEmbeddings(settings, env);
    case "aws-bedrock":
      return bedrockEmbeddings(settings.model, env);
    case "ollama":
      return ollamaEmbeddings(settings.model, env);
  }
}

async function openAiEmbeddings(
  settings: EmbeddingsSettings,
  env: NodeJS.ProcessEnv,
): Promise<EmbeddingsInterface> {
  const { AzureOpenAIEmbeddings, OpenAIEmbeddings } = await import("@langchain/openai");
  if (settings.provider === "openai") {
    if (!env.OPENAI_API_KEY) {
      throw configError("EMBEDDINGS_PROVIDER=openai needs OPENAI_API_KEY.");
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
    throw configError(`EMBEDDINGS_PROVIDER=azure-openai needs ${missing.join(", ")}.`);
  }
  return new AzureOpenAIEmbeddings({
    azureOpenAIApiKey: env.AZURE_OPENAI_API_KEY,
    azureOpenAIEndpoint: env.AZURE_OPENAI_ENDPOINT,
    azureOpenAIApiVersion: env.AZURE_OPENAI_API_VERSION,
    azureOpenAIApiDeploymentName: settings.model,
  });
}

/**
 * Bedrock's InvokeModel (BedrockEmbeddings; Titan text embeddings by default) in AWS_REGION (CAIPE's
 * default us-east-1), with the chat model's credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY,
 * else AWS_PROFILE, else the default chain; AWS_ENDPOINT_URL_BEDROCK_RUNTIME (else AWS_ENDPOINT_URL)
 * for a gateway or a test server.
 */
async function bedrockEmbeddings(model: string, env: NodeJS.ProcessEnv): Promise<EmbeddingsInterface> {
  if (Boolean(env.AWS_ACCESS_KEY_ID) !== Boolean(env.AWS_SECRET_ACCESS_KEY)) {
    throw configError(
      "EMBEDDINGS_PROVIDER=aws-bedrock: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY together " +
        "(or neither, to use AWS_PROFILE or the default AWS credential chain).",
    );
  }
  const endpointVariable = env.AWS_ENDPOINT_URL_BEDROCK_RUNTIME
    ? "AWS_ENDPOINT_URL_BEDROCK_RUNTIME"
    : "AWS_ENDPOINT_URL";
  const endpoint = env[endpointVariable];
  const { BedrockEmbeddings } = await import("@langchain/aws");
  return new BedrockEmbeddings({
    model,
    // The AWS SDK retries throttling and server errors itself; LangChain's caller would retry every
    // failure (it wraps the SDK's error, losing its status), a refused model id for a minute or more.
    maxRetries: 0,
    region: env.AWS_REGION || "us-east-1",
    ...(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? {
          credentials: {
            accessKeyId: env.AWS_ACCESS_KEY_ID,
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
            ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
          },
        }
      : {}),
    clientOptions: {
      ...(env.AWS_PROFILE && !env.AWS_ACCESS_KEY_ID ? { profile: env.AWS_PROFILE } : {}),
      ...(endpoint ? { endpoint: httpUrl(endpoint, endpointVariable, "aws-bedrock") } : {}),
    },
  });
}

/** Ollama's /api/embed (OllamaEmbeddings) at OLLAMA_BASE_URL, default http://localhost:11434 as CAIPE's. */
async function ollamaEmbeddings(model: string, env: NodeJS.ProcessEnv): Promise<EmbeddingsInterface> {
  const baseUrl = httpUrl(env.OLLAMA_BASE_URL || "http://localhost:11434", "OLLAMA_BASE_URL", "ollama");
  const { OllamaEmbeddings } = await import("@langchain/ollama");
  return new OllamaEmbeddings({
    model,
    baseUrl,
    // The ollama client's errors carry `status_code`, which LangChain's caller does not read: a 4xx (a
    // model not pulled) fails at once rather than after six retries, and an unreachable server soon.
    maxRetries: 2,
    onFailedAttempt: (error: { status_code?: unknown }) => {
      const status = typeof error.status_code === "number" ? error.status_code : 0;
      if (status >= 400 && status < 500 && status !== 429) throw error;
    },
  });
}
