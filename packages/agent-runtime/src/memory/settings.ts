import { parseEnv, SwitchboardError } from "@switchboard/common";
import { z } from "zod";

/** The embeddings providers memory ranking takes, spelled as CAIPE's RAG stack spells them. */
export const EMBEDDINGS_PROVIDERS = ["openai", "azure-openai", "aws-bedrock", "ollama"] as const;
export type EmbeddingsProvider = (typeof EMBEDDINGS_PROVIDERS)[number];

/** EMBEDDINGS_MODEL when unset, as CAIPE's defaults (Ollama has none: the model must be one pulled). */
const DEFAULT_EMBEDDINGS_MODEL: Record<Exclude<EmbeddingsProvider, "ollama">, string> = {
  openai: "text-embedding-3-small",
  "azure-openai": "text-embedding-3-small",
  "aws-bedrock": "amazon.titan-embed-text-v2:0",
};

const embeddingsProvider = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(
    z.enum(EMBEDDINGS_PROVIDERS, {
      error:
        "use openai, azure-openai, aws-bedrock or ollama, or leave it unset to rank memories by shared words " +
        "(CAIPE's litellm proxy: openai with OPENAI_BASE_URL; cohere and huggingface are not offered)",
    }),
  )
  .optional();

const MemoryEnv = z.object({
  // CAIPE's names.
  ENABLE_FACT_EXTRACTION: z.stringbool().default(false),
  FACT_EXTRACTION_MODEL: z.string().trim().min(1).optional(),
  EMBEDDINGS_PROVIDER: embeddingsProvider,
  EMBEDDINGS_MODEL: z.string().trim().min(1).optional(),
  // CAIPE's store-only overrides of the two above (its RAG stack shares EMBEDDINGS_*).
  LANGGRAPH_STORE_EMBEDDINGS_PROVIDER: embeddingsProvider,
  LANGGRAPH_STORE_EMBEDDINGS_MODEL: z.string().trim().min(1).optional(),
  // Switchboard's own: how many memories one user keeps per agent (the oldest unused go first), and
  // how much of MAX_CONTEXT_TOKENS they may take in a model call.
  MEMORY_MAX_PER_USER: z.coerce.number().int().positive().default(1_000),
  MEMORY_CONTEXT_TOKENS: z.coerce.number().int().positive().optional(),
});

export interface MemorySettings {
  extraction: { enabled: boolean; model?: string };
  embeddings?: { provider: EmbeddingsProvider; model: string };
  maxPerUser: number;
  /** Tokens (estimated) the recalled memories may take; undefined: an eighth of the context budget, at most 2,000. */
  contextTokens?: number;
}

export function readMemorySettings(env: NodeJS.ProcessEnv): MemorySettings {
  const e = parseEnv(MemoryEnv, env, { code: "memory.config", what: "long-term memory settings" });
  const provider = e.LANGGRAPH_STORE_EMBEDDINGS_PROVIDER ?? e.EMBEDDINGS_PROVIDER;
  return {
    extraction: {
      enabled: e.ENABLE_FACT_EXTRACTION,
      ...(e.FACT_EXTRACTION_MODEL ? { model: e.FACT_EXTRACTION_MODEL } : {}),
    },
    ...(provider
      ? {
          embeddings: {
            provider,
            model: embeddingsModel(provider, e.LANGGRAPH_STORE_EMBEDDINGS_MODEL ?? e.EMBEDDINGS_MODEL),
          },
        }
      : {}),
    maxPerUser: e.MEMORY_MAX_PER_USER,
    ...(e.MEMORY_CONTEXT_TOKENS ? { contextTokens: e.MEMORY_CONTEXT_TOKENS } : {}),
  };
}

function embeddingsModel(provider: EmbeddingsProvider, model: string | undefined): string {
  if (model) return model;
  if (provider !== "ollama") return DEFAULT_EMBEDDINGS_MODEL[provider];
  throw new SwitchboardError(
    "memory.config",
    "user",
    "EMBEDDINGS_PROVIDER=ollama needs EMBEDDINGS_MODEL: an embedding model pulled into Ollama (e.g. nomic-embed-text).",
  );
}

/** The recalled memories' share of a model call: MEMORY_CONTEXT_TOKENS, else maxTokens/8 up to 2,000. */
export function memoryTokens(settings: MemorySettings, maxContextTokens: number | undefined): number {
  const share = maxContextTokens ? Math.floor(maxContextTokens / 8) : 2_000;
  return Math.min(
    settings.contextTokens ?? Math.min(share, 2_000),
    maxContextTokens ?? Number.POSITIVE_INFINITY,
  );
}
