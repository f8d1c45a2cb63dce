#!/usr/bin/env node
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createDeskServer } from "./desk-server.js";
import { DeskStore } from "./store.js";

// The desk over stdio, as an agent spawns it: state in TEST_MCP_STATE_FILE, the credential from
// TEST_MCP_TOKEN (what an MCP server's env carries), nothing on stdout but the protocol.
const file = process.env.TEST_MCP_STATE_FILE;
if (!file) {
  process.stderr.write("test-mcp: set TEST_MCP_STATE_FILE to the desk's state file\n");
  process.exit(2);
}
const store = new DeskStore(file);
store.update((state) => {
  state.pids.push(process.pid);
});
await createDeskServer({ store, credential: process.env.TEST_MCP_TOKEN }).connect(new StdioServerTransport());
process.stderr.write("test-mcp desk listening on stdio\n");
