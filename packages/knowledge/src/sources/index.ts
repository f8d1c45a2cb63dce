export type { Connector, ConnectorContext, Listing } from "./connector.js";
export {
  readSourcesFile,
  type SourceDefinition,
  SourceDefinitionSchema,
  type SourceOf,
  type SourceType,
} from "./definition.js";
export { type SyncDeps, syncSource } from "./sync.js";
export { type UploadedFile, uploadDocument } from "./upload.js";
