export type { Chunk, ChunkingOptions } from "./chunking.js";
export { type Engine, pgliteEngine, postgresEngine, type Queryable } from "./engine.js";
export type { KnowledgeDocument, UpsertResult } from "./ingest.js";
export type { Readers } from "./readers.js";
export type { FetchedDocument, FetchQuery } from "./reading.js";
export type { SearchHit, SearchQuery } from "./search.js";
export { type KnowledgeSettings, openConfiguredKnowledgeStore, readKnowledgeSettings } from "./settings.js";
export { type KnowledgeStore, type KnowledgeStoreOptions, openKnowledgeStore } from "./store.js";
export type { SyncStatus } from "./sync-status.js";
