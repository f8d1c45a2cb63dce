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

/** CAIPE's RAG stack's names alone, without memory's store-only overrides: the knowledge base reads these. */
const EmbeddingsEnv = z.object({
  EMBEDDINGS_PROVIDER: embeddingsProvider,
  EMBEDDINGS_MODEL: z.string().trim().min(1).optional(),
});

export type EmbeddingsSettings = { provider: EmbeddingsProvider; model: string };

/** EMBEDDINGS_PROVIDER and EMBEDDINGS_MODEL (undefined when no provider is set). */
export function readEmbeddingsSettings(env: NodeJS.ProcessEnv): EmbeddingsSettings | undefined {
  const e = parseEnv(EmbeddingsEnv, env, { code: "embeddings.config", what: "embeddings settings" });
  return e.EMBEDDINGS_PROVIDER
    ? { provider: e.EMBEDDINGS_PROVIDER, model: embeddingsModel(e.EMBEDDINGS_PROVIDER, e.EMBEDDINGS_MODEL) }
    : undefined;
}

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
  embeddings?: EmbeddingsSettings;
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

/** LANGGRAPH_STORE_TYPE's values (CAIPE's): redis is read and ignored (named at start-up). */
const STORE_TYPES = ["mongodb", "postgres", "memory", "none", "redis"] as const;

const dsn = z.string().trim().min(1).optional();

const StoreChoiceEnv = z.object({
  // CAIPE lower-cases it too.
  LANGGRAPH_STORE_TYPE: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(
      z.enum(STORE_TYPES, {
        error: (issue) =>
          `"${String(issue.input)}" is not a long-term store: use mongodb, postgres, memory or none ` +
          "(CAIPE's redis is accepted and ignored)",
      }),
    )
    .optional(),
  // CAIPE's DSN names, in its order; then the checkpoints' PostgreSQL (one server for both).
  LANGGRAPH_STORE_POSTGRES_DSN: dsn,
  POSTGRES_DSN: dsn,
  LANGGRAPH_CHECKPOINT_POSTGRES_DSN: dsn,
});

export type DsnVariable =
  | "LANGGRAPH_STORE_POSTGRES_DSN"
  | "POSTGRES_DSN"
  | "LANGGRAPH_CHECKPOINT_POSTGRES_DSN";

/** Where long-term memory is kept: PostgreSQL here, or what @switchboard/utils' openStore chooses. */
export type StoreChoice =
  | { backend: "postgres"; dsn: string; dsnVariable: DsnVariable }
  | {
      backend: "openStore";
      /** LANGGRAPH_STORE_TYPE for openStore (lower-cased); undefined: its default, MongoDB when a URI is set. */
      type?: "mongodb" | "memory" | "none";
      /** LANGGRAPH_STORE_TYPE=redis was set: Switchboard keeps no store on Redis, so openStore's default is used. */
      ignoredRedis: boolean;
    };

export function readStoreChoice(env: NodeJS.ProcessEnv): StoreChoice {
  const e = parseEnv(StoreChoiceEnv, env, { code: "store.config", what: "long-term store settings" });
  const type = e.LANGGRAPH_STORE_TYPE;
  if (type === "redis") return { backend: "openStore", ignoredRedis: true };
  if (type !== "postgres") return { backend: "openStore", ignoredRedis: false, ...(type ? { type } : {}) };
  const dsnVariable = (
    ["LANGGRAPH_STORE_POSTGRES_DSN", "POSTGRES_DSN", "LANGGRAPH_CHECKPOINT_POSTGRES_DSN"] as const
  ).find((name) => e[name]);
  if (!dsnVariable) {
    throw new SwitchboardError(
      "store.config",
      "user",
      "LANGGRAPH_STORE_TYPE=postgres needs a PostgreSQL DSN: set LANGGRAPH_STORE_POSTGRES_DSN " +
        "(e.g. postgresql://langgraph:secret@localhost:5432/langgraph; POSTGRES_DSN and the checkpoints' " +
        "LANGGRAPH_CHECKPOINT_POSTGRES_DSN are read after it), or set LANGGRAPH_STORE_TYPE=mongodb, memory or none.",
    );
  }
  return { backend: "postgres", dsn: e[dsnVariable] as string, dsnVariable };
}
