export type { Chunk, ChunkingOptions } from "./chunking.js";
export { type Engine, pgliteEngine, postgresEngine, type Queryable } from "./engine.js";
export type { KeptDocument, KnowledgeDocument, UpsertOptions, UpsertResult } from "./ingest.js";
export type { Readers } from "./readers.js";
export type { FetchedDocument, FetchQuery } from "./reading.js";
export type { SearchHit, SearchQuery } from "./search.js";
export {
  type IngestSettings,
  type KnowledgeSettings,
  openConfiguredKnowledgeStore,
  readIngestSettings,
  readKnowledgeSettings,
} from "./settings.js";
export {
  type Connector,
  type ConnectorContext,
  type Listing,
  readSourcesFile,
  type SourceDefinition,
  SourceDefinitionSchema,
  type SourceOf,
  type SourceType,
  type SyncDeps,
  syncSource,
  type UploadedFile,
  uploadDocument,
} from "./sources/index.js";
export { type KnowledgeStore, type KnowledgeStoreOptions, openKnowledgeStore } from "./store.js";
export type { SyncProgress, SyncStatus } from "./sync-status.js";
