import { runProcess } from "@switchboard/common";
import { announceReady } from "@switchboard/contract";
import { startMcpServer } from "./app.js";
import { readMcpServerSettings } from "./env.js";

await runProcess("mcp-server", "MCP server", async (logger) => {
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
  return { drain: () => server.stop() };
});
