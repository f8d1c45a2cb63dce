export { assertValidAgentName, type DetectedAgentName, detectAgentName } from "./agent-name.js";
export { type CheckpointMetrics, checkpointMetrics } from "./checkpoint-metrics.js";
export {
  type CheckpointerHandle,
  type CheckpointerInfo,
  type CheckpointerOptions,
  closeCheckpointer,
  getCheckpointer,
  getCheckpointerDb,
  getCheckpointerInfo,
  openCheckpointer,
} from "./checkpointer.js";
export { type ResolvedCheckpointer, resolveCheckpointer } from "./checkpointer-build.js";
export { MAX_VALUE_BYTES, MongoCheckpointSaver, type MongoSaverOptions } from "./mongo-saver.js";
export { redactMongoUri } from "./mongo-uri.js";
export { agentCollections, type SaverCollections } from "./saver/documents.js";
export { openStore, type StoreHandle, type StoreInfo, type StoreOptions, storeCollection } from "./store.js";
export { DEFAULT_STORE_TTL_MINUTES, readStoreSettings, type StoreSettings } from "./store-env.js";
