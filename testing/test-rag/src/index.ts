export { CAIPE_RAG_TOOLS, FETCH_DOCUMENT, LIST_DATASOURCES, SEARCH } from "./caipe-tools.js";
export type { RagDatasource, RagDocument, SearchHit } from "./knowledge.js";
export { type RagServer, type RagServerOptions, type ReceivedCall, startRagServer } from "./rag-server.js";
