export { assertValidAgentName, type DetectedAgentName, detectAgentName } from "./agent-name.js";
export { checkpointErrors, checkpointReadDuration, checkpointWriteDuration } from "./checkpoint-metrics.js";
export {
  type CheckpointerInfo,
  type CheckpointerOptions,
  closeCheckpointer,
  getCheckpointer,
  getCheckpointerDb,
  getCheckpointerInfo,
  pingCheckpointer,
} from "./checkpointer.js";
export { MAX_VALUE_BYTES, MongoCheckpointSaver, type MongoSaverOptions } from "./mongo-saver.js";
export { agentCollections, type SaverCollections } from "./saver-docs.js";
