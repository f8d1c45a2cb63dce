import { parseEnv } from "@switchboard/common";
import { z } from "zod";

const MemoryEnv = z.object({
  // CAIPE's names.
  ENABLE_FACT_EXTRACTION: z.stringbool().default(false),
  FACT_EXTRACTION_MODEL: z.string().trim().min(1).optional(),
  EMBEDDINGS_PROVIDER: z.enum(["openai", "azure-openai"]).optional(),
  EMBEDDINGS_MODEL: z.string().trim().min(1).optional(),
  // Switchboard's own: how many memories one user keeps per agent (the oldest unused go first), and
  // how much of MAX_CONTEXT_TOKENS they may take in a model call.
  MEMORY_MAX_PER_USER: z.coerce.number().int().positive().default(1_000),
  MEMORY_CONTEXT_TOKENS: z.coerce.number().int().positive().optional(),
});

export interface MemorySettings {
  extraction: { enabled: boolean; model?: string };
  embeddings?: { provider: "openai" | "azure-openai"; model: string };
  maxPerUser: number;
  /** Tokens (estimated) the recalled memories may take; undefined: an eighth of the context budget, at most 2,000. */
  contextTokens?: number;
}

export function readMemorySettings(env: NodeJS.ProcessEnv): MemorySettings {
  const e = parseEnv(MemoryEnv, env, { code: "memory.config", what: "long-term memory settings" });
  return {
    extraction: {
      enabled: e.ENABLE_FACT_EXTRACTION,
      ...(e.FACT_EXTRACTION_MODEL ? { model: e.FACT_EXTRACTION_MODEL } : {}),
    },
    ...(e.EMBEDDINGS_PROVIDER
      ? {
          embeddings: {
            provider: e.EMBEDDINGS_PROVIDER,
            model: e.EMBEDDINGS_MODEL ?? "text-embedding-3-small",
          },
        }
      : {}),
    maxPerUser: e.MEMORY_MAX_PER_USER,
    ...(e.MEMORY_CONTEXT_TOKENS ? { contextTokens: e.MEMORY_CONTEXT_TOKENS } : {}),
  };
}

/** The recalled memories' share of a model call: MEMORY_CONTEXT_TOKENS, else maxTokens/8 up to 2,000. */
export function memoryTokens(settings: MemorySettings, maxContextTokens: number | undefined): number {
  const share = maxContextTokens ? Math.floor(maxContextTokens / 8) : 2_000;
  return Math.min(
    settings.contextTokens ?? Math.min(share, 2_000),
    maxContextTokens ?? Number.POSITIVE_INFINITY,
  );
}
