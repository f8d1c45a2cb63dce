import { createLogger, isSwitchboardError } from "@switchboard/common";
import { announceReady } from "@switchboard/contract";
import { startMcpServer } from "./app.js";
import { readMcpServerSettings } from "./env.js";

const logger = createLogger({ base: { agent: "mcp-server" } });
try {
  const settings = readMcpServerSettings(process.env);
  if (settings.auth.mode === "jwt") for (const warning of settings.auth.warnings) logger.warn(warning);
  const server = await startMcpServer(settings, logger);
  logger.info(
    { url: server.url, supervisor: settings.supervisorUrl, auth: settings.auth.mode },
    "MCP server ready",
  );
  if (settings.auth.mode === "none") {
    logger.warn(
      "AUTH_MODE=none: every MCP client acts as the one local principal; set AUTH_MODE=jwt with AUTH_JWKS_URL, AUTH_ISSUER and AUTH_AUDIENCE so each user acts as themselves",
    );
  }
  announceReady({ agent: "mcp-server", port: server.port, url: server.url });
  const stop = async () => {
    await server.stop();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
} catch (error) {
  const message = isSwitchboardError(error) ? error.message : String(error);
  logger.fatal({ err: isSwitchboardError(error) ? undefined : error }, `MCP server cannot start: ${message}`);
  process.exit(1);
}
