import {
  createEmbeddings,
  type EmbeddingsSettings,
  readEmbeddingsSettings,
} from "@switchboard/agent-runtime/embeddings";
import { maskUrlSecrets, networkFailureOf, parseEnv, SwitchboardError } from "@switchboard/common";
import { z } from "zod";
import { type Engine, pgliteEngine, postgresEngine } from "./engine.js";
import { type KnowledgeStore, openKnowledgeStore } from "./store.js";

const KnowledgeEnv = z.object({
  // Switchboard's own (CAIPE's knowledge base keeps its documents in Milvus, with no PostgreSQL setting).
  KNOWLEDGE_POSTGRES_DSN: z.string().trim().min(1).optional(),
  KNOWLEDGE_PGLITE_DIR: z.string().trim().min(1).default(".data/knowledge"),
});

const IngestEnv = z.object({
  // Switchboard's own. The largest answer a source's sync reads (a page, a file, an API answer), in bytes.
  KNOWLEDGE_FETCH_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(20 * 1024 * 1024),
  // Switchboard's own. Web sources may read loopback, link-local and private addresses (an intranet).
  KNOWLEDGE_WEB_ALLOW_PRIVATE_NETWORKS: z.stringbool().default(false),
});

/** How sources are read (sources/): the size limit of what is fetched, and whether web sources reach private networks. */
export interface IngestSettings {
  maxBytes: number;
  webAllowPrivate: boolean;
}

export function readIngestSettings(env: NodeJS.ProcessEnv): IngestSettings {
  const e = parseEnv(IngestEnv, env, { code: "knowledge.config", what: "knowledge ingest settings" });
  return { maxBytes: e.KNOWLEDGE_FETCH_MAX_BYTES, webAllowPrivate: e.KNOWLEDGE_WEB_ALLOW_PRIVATE_NETWORKS };
}

export interface KnowledgeSettings {
  /** PostgreSQL + pgvector at a DSN, else PGlite in a folder of this machine. */
  engine: { kind: "postgres"; dsn: string } | { kind: "pglite"; dataDir: string };
  embeddings: EmbeddingsSettings;
}

/**
 * Where the knowledge base is kept and how it embeds: KNOWLEDGE_POSTGRES_DSN (a PostgreSQL with
 * pgvector), else the embedded PGlite in KNOWLEDGE_PGLITE_DIR; EMBEDDINGS_PROVIDER and EMBEDDINGS_MODEL
 * as CAIPE's RAG stack names them (required: the store searches by meaning).
 */
export function readKnowledgeSettings(env: NodeJS.ProcessEnv): KnowledgeSettings {
  const e = parseEnv(KnowledgeEnv, env, { code: "knowledge.config", what: "knowledge base settings" });
  const embeddings = readEmbeddingsSettings(env);
  if (!embeddings) {
    throw new SwitchboardError(
      "knowledge.config",
      "user",
      "The knowledge base needs embeddings: set EMBEDDINGS_PROVIDER (openai, azure-openai, aws-bedrock or " +
        "ollama, with that provider's credentials) and, where the provider has no default, EMBEDDINGS_MODEL.",
    );
  }
  return {
    engine: e.KNOWLEDGE_POSTGRES_DSN
      ? { kind: "postgres", dsn: e.KNOWLEDGE_POSTGRES_DSN }
      : { kind: "pglite", dataDir: e.KNOWLEDGE_PGLITE_DIR },
    embeddings,
  };
}

/** The store the settings describe, with the runtime's embeddings client for EMBEDDINGS_PROVIDER. */
export async function openConfiguredKnowledgeStore(
  settings: KnowledgeSettings,
  env: NodeJS.ProcessEnv,
): Promise<KnowledgeStore> {
  const embeddings = await createEmbeddings(settings.embeddings, env);
  const engine: Engine =
    settings.engine.kind === "postgres"
      ? postgresEngine(settings.engine.dsn)
      : await pgliteEngine(settings.engine.dataDir);
  try {
    return await openKnowledgeStore({ engine, embeddings, embeddingsModel: settings.embeddings.model });
  } catch (error) {
    await engine.close().catch(() => {});
    throw settings.engine.kind === "postgres" ? postgresOpenError(error, settings.engine.dsn) : error;
  }
}

/** The two ways a PostgreSQL cannot take the knowledge base, each with its fix. */
function postgresOpenError(error: unknown, dsn: string): unknown {
  const where = `the knowledge base's PostgreSQL (KNOWLEDGE_POSTGRES_DSN=${maskUrlSecrets(dsn)})`;
  const failure = networkFailureOf(error);
  if (failure) {
    return new SwitchboardError(
      "knowledge.unreachable",
      "system",
      `Nothing answered at ${where} (${failure.code}): start it, or correct the DSN.`,
      { cause: error },
    );
  }
  if (error instanceof Error && /extension "vector"/.test(error.message)) {
    return new SwitchboardError(
      "knowledge.config",
      "user",
      `${where} has no pgvector: install it on that server (Debian: postgresql-<version>-pgvector), ` +
        "or create the extension as a superuser (CREATE EXTENSION vector) in that database.",
      { cause: error },
    );
  }
  return error;
}
