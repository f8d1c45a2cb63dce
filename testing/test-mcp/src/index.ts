export { createDeskServer, type DeskServerOptions, fingerprint, REPORT_CHARS } from "./desk-server.js";
export { type DeskHttpOptions, type DeskHttpServer, startDeskHttpServer } from "./http.js";
export { deskStdioCommand } from "./stdio-command.js";
export { type DeskState, DeskStore, type Ticket } from "./store.js";
