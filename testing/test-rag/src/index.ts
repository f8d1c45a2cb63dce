export type { RagDatasource, RagDocument, SearchHit } from "./knowledge.js";
export { type RagServer, type RagServerOptions, type ReceivedCall, startRagServer } from "./rag-server.js";
