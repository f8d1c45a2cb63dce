import { describe, expect, it } from "vitest";
import { createEmbeddings } from "./embeddings.js";
import { readEmbeddingsSettings, readMemorySettings } from "./settings.js";

const embeddingsFor = async (env: Record<string, string>) => {
  const settings = readMemorySettings(env).embeddings;
  if (!settings) throw new Error("no embeddings settings");
  return createEmbeddings(settings, env);
};

describe("EMBEDDINGS_PROVIDER settings", () => {
  it("takes CAIPE's provider names and defaults, and names what is missing or wrong at start-up", async () => {
    expect(readMemorySettings({ EMBEDDINGS_PROVIDER: "AWS-Bedrock" }).embeddings).toEqual({
      provider: "aws-bedrock",
      model: "amazon.titan-embed-text-v2:0",
    });
    // CAIPE's store-only overrides win over the RAG stack's shared EMBEDDINGS_*.
    expect(
      readMemorySettings({
        EMBEDDINGS_PROVIDER: "azure-openai",
        EMBEDDINGS_MODEL: "text-embedding-3-large",
        LANGGRAPH_STORE_EMBEDDINGS_PROVIDER: "ollama",
        LANGGRAPH_STORE_EMBEDDINGS_MODEL: "nomic-embed-text",
      }).embeddings,
    ).toEqual({ provider: "ollama", model: "nomic-embed-text" });
    expect(() => readMemorySettings({ EMBEDDINGS_PROVIDER: "cohere" })).toThrow(
      /EMBEDDINGS_PROVIDER: use openai, azure-openai, aws-bedrock or ollama.*cohere and huggingface are not offered/,
    );
    expect(() => readMemorySettings({ EMBEDDINGS_PROVIDER: "ollama" })).toThrow(
      "EMBEDDINGS_PROVIDER=ollama needs EMBEDDINGS_MODEL: an embedding model pulled into Ollama (e.g. nomic-embed-text).",
    );
    await expect(
      embeddingsFor({
        EMBEDDINGS_PROVIDER: "ollama",
        EMBEDDINGS_MODEL: "nomic-embed-text",
        OLLAMA_BASE_URL: "localhost:11434",
      }),
    ).rejects.toThrow("OLLAMA_BASE_URL must be an http(s) URL such as http://localhost:11434.");
    const halfKey = embeddingsFor({
      EMBEDDINGS_PROVIDER: "aws-bedrock",
      AWS_ACCESS_KEY_ID: "AKIAEXAMPLEHALFKEY01",
    });
    await expect(halfKey).rejects.toThrow(
      "EMBEDDINGS_PROVIDER=aws-bedrock: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY together",
    );
    await expect(halfKey).rejects.not.toThrow("AKIAEXAMPLEHALFKEY01");
    await expect(
      embeddingsFor({
        EMBEDDINGS_PROVIDER: "aws-bedrock",
        AWS_ENDPOINT_URL_BEDROCK_RUNTIME: "bedrock.internal:8443",
      }),
    ).rejects.toThrow("AWS_ENDPOINT_URL_BEDROCK_RUNTIME must be an http(s) URL");
  });

  it("reads EMBEDDINGS_PROVIDER and EMBEDDINGS_MODEL alone for the knowledge base (memory's store-only overrides are memory's)", () => {
    expect(readEmbeddingsSettings({})).toBeUndefined();
    expect(
      readEmbeddingsSettings({
        EMBEDDINGS_PROVIDER: "Azure-OpenAI",
        LANGGRAPH_STORE_EMBEDDINGS_PROVIDER: "ollama",
        LANGGRAPH_STORE_EMBEDDINGS_MODEL: "nomic-embed-text",
      }),
    ).toEqual({ provider: "azure-openai", model: "text-embedding-3-small" });
    expect(() => readEmbeddingsSettings({ EMBEDDINGS_PROVIDER: "cohere" })).toThrow(
      /EMBEDDINGS_PROVIDER: use openai, azure-openai, aws-bedrock or ollama/,
    );
    expect(() => readEmbeddingsSettings({ EMBEDDINGS_PROVIDER: "ollama" })).toThrow(
      "EMBEDDINGS_PROVIDER=ollama needs EMBEDDINGS_MODEL",
    );
  });
});
