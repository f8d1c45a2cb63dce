export { createDeskServer, type DeskServerOptions, fingerprint, REPORT_CHARS } from "./desk-server.js";
export {
  type DeskHttpOptions,
  type DeskHttpServer,
  type McpHttpOptions,
  type McpHttpServer,
  startDeskHttpServer,
  startMcpHttpServer,
} from "./http.js";
export {
  createSplunkSearchServer,
  type SplunkEvent,
  type SplunkSearchServerOptions,
} from "./splunk-search-server.js";
export { type McpSseOptions, type McpSseServer, startMcpSseServer } from "./sse.js";
export { deskStdioCommand } from "./stdio-command.js";
export { type DeskState, DeskStore, type Ticket } from "./store.js";
