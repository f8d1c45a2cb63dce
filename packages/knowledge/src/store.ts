import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { Principal } from "@switchboard/agent-runtime";
import { SwitchboardError } from "@switchboard/common";
import type { ChunkingOptions } from "./chunking.js";
import type { Engine } from "./engine.js";
import {
  documentVersions,
  errorText,
  type KeptDocument,
  type KnowledgeDocument,
  keepDocuments,
  removeMissing,
  type UpsertOptions,
  type UpsertResult,
  upsertDocuments,
} from "./ingest.js";
import { type FetchedDocument, type FetchQuery, fetchDocument, readableSources } from "./reading.js";
import { schemaSql } from "./schema.js";
import { type SearchHit, type SearchQuery, search } from "./search.js";
import {
  recordProgress,
  recordSync,
  type SyncProgress,
  type SyncStatus,
  syncStatuses,
} from "./sync-status.js";

export interface KnowledgeStoreOptions {
  engine: Engine;
  /** The embeddings model (agent-runtime's createEmbeddings, from EMBEDDINGS_PROVIDER). */
  embeddings: EmbeddingsInterface;
  /** Its name (EMBEDDINGS_MODEL): kept with the vectors, so a changed model is named at open. */
  embeddingsModel: string;
  chunking?: ChunkingOptions;
}

export interface KnowledgeStore {
  readonly engine: Engine;
  /** The embeddings' vector length the store was made with. */
  readonly dimensions: number;
  upsertDocuments(
    sourceId: string,
    documents: KnowledgeDocument[],
    options?: UpsertOptions,
  ): Promise<UpsertResult>;
  /** The source's own versions of its stored documents, by id (see ingest.ts). */
  documentVersions(sourceId: string): Promise<Map<string, string>>;
  /** Updates the link and readers of documents the source says are unchanged; returns the ids held. */
  keepDocuments(sourceId: string, kept: KeptDocument[]): Promise<string[]>;
  /** Deletes the source's documents not in `keptIds` (see ingest.ts); returns their ids. */
  removeMissing(sourceId: string, keptIds: string[]): Promise<string[]>;
  /** Records that a sync of the source failed as a whole (its listing could not be read): shown, not skipped. */
  recordSyncError(sourceId: string, error: unknown): Promise<void>;
  /** Records that a sync of the source ended now: with `error` (in part or whole), or worked. */
  recordSync(sourceId: string, error?: string): Promise<void>;
  /** Records a sync's progress and whether it still runs, for every replica and the sources page. */
  recordProgress(sourceId: string, progress: SyncProgress, running: boolean): Promise<void>;
  syncStatus(): Promise<SyncStatus[]>;
  syncStatus(sourceId: string): Promise<SyncStatus | undefined>;
  search(query: SearchQuery): Promise<SearchHit[]>;
  /** A whole document, if the principal may read it (reading.ts). */
  fetchDocument(query: FetchQuery): Promise<FetchedDocument[]>;
  /** The sources holding a document the principal may read. */
  readableSources(principal: Principal): Promise<string[]>;
  close(): Promise<void>;
}

/** Serializes first opens of one database (two replicas starting at once make the tables once). */
const SCHEMA_LOCK = "SELECT pg_advisory_xact_lock(hashtext('switchboard.knowledge.schema'))";

/**
 * The store on `engine`, its tables made when missing. The first open asks the embeddings model for
 * one vector to learn its length; later opens read it, and refuse a different EMBEDDINGS_MODEL (its
 * vectors could not be compared with those stored).
 */
export async function openKnowledgeStore(options: KnowledgeStoreOptions): Promise<KnowledgeStore> {
  const { engine, embeddings, embeddingsModel } = options;
  const dimensions = await engine.transaction(async (tx) => {
    await tx.query(SCHEMA_LOCK);
    const [made] = await tx.query<{ made: boolean }>(
      `SELECT to_regclass('knowledge_meta') IS NOT NULL AS made`,
    );
    const [meta] = made?.made
      ? await tx.query<{ embeddings_model: string; dimensions: number }>(
          `SELECT embeddings_model, dimensions FROM knowledge_meta`,
        )
      : [];
    if (meta && meta.embeddings_model !== embeddingsModel) {
      throw new SwitchboardError(
        "knowledge.config",
        "user",
        `The knowledge base was built with the embeddings model "${meta.embeddings_model}" ` +
          `(${meta.dimensions} numbers a vector), and EMBEDDINGS_MODEL is now "${embeddingsModel}": ` +
          "set EMBEDDINGS_MODEL back, or empty the knowledge base's database to embed every document again.",
      );
    }
    const length = meta?.dimensions ?? (await embeddings.embedQuery("knowledge base")).length;
    await tx.exec(schemaSql(length));
    await tx.query(
      `INSERT INTO knowledge_meta (embeddings_model, dimensions) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [embeddingsModel, length],
    );
    return length;
  });
  const context = { engine, embeddings, dimensions, chunking: options.chunking ?? {} };
  async function syncStatus(): Promise<SyncStatus[]>;
  async function syncStatus(sourceId: string): Promise<SyncStatus | undefined>;
  async function syncStatus(sourceId?: string) {
    const statuses = await syncStatuses(engine, sourceId);
    return sourceId === undefined ? statuses : statuses[0];
  }
  return {
    engine,
    dimensions,
    upsertDocuments: (sourceId, documents, upsertOptions) =>
      upsertDocuments(context, sourceId, documents, upsertOptions),
    removeMissing: (sourceId, keptIds) => removeMissing(engine, sourceId, keptIds),
    documentVersions: (sourceId) => documentVersions(engine, sourceId),
    keepDocuments: (sourceId, kept) => keepDocuments(engine, sourceId, kept),
    recordSyncError: (sourceId, error) => recordSync(engine, sourceId, errorText(error)),
    recordSync: (sourceId, error) => recordSync(engine, sourceId, error),
    recordProgress: (sourceId, progress, running) => recordProgress(engine, sourceId, progress, running),
    syncStatus,
    search: (query) => search(engine, { model: embeddings, dimensions }, query),
    fetchDocument: (query) => fetchDocument(engine, query),
    readableSources: (principal) => readableSources(engine, principal),
    close: () => engine.close(),
  };
}
