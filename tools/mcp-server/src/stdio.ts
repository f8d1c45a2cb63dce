#!/usr/bin/env node
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createLogger, isSwitchboardError } from "@switchboard/common";
import { readMcpServerSettings } from "./env.js";
import { Supervisor } from "./supervisor.js";
import { switchboardMcpServer } from "./tools.js";

// stdout is the protocol's: every log line goes to stderr.
const logger = createLogger({ base: { agent: "mcp-server" }, destination: process.stderr });
try {
  const settings = readMcpServerSettings(process.env);
  const mcp = switchboardMcpServer({
    supervisor: new Supervisor(settings.supervisorUrl, settings.turnTimeoutMs, logger),
    webUrl: settings.webUrl,
    logger,
    // The local user's own token (SWITCHBOARD_TOKEN), checked by the supervisor on every call.
    tokenOf: () => settings.token,
  });
  await mcp.connect(new StdioServerTransport());
  logger.info(
    { supervisor: settings.supervisorUrl, token: settings.token ? "set" : "none" },
    "MCP server on stdio",
  );
} catch (error) {
  const message = isSwitchboardError(error) ? error.message : String(error);
  logger.fatal({ err: isSwitchboardError(error) ? undefined : error }, `MCP server cannot start: ${message}`);
  process.exit(1);
}
