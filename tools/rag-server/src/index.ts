#!/usr/bin/env node
import { runProcess } from "@switchboard/common";
import { announceReady } from "@switchboard/contract";
import { startRagServer } from "./app.js";
import { readRagServerSettings } from "./env.js";

await runProcess("rag-server", "RAG server", async (logger) => {
  const settings = readRagServerSettings(process.env);
  if (settings.auth.mode === "jwt") for (const warning of settings.auth.warnings) logger.warn(warning);
  const server = await startRagServer(settings, process.env, logger);
  logger.info(
    {
      url: server.url,
      engine: settings.knowledge.engine.kind,
      sources: settings.sources.map((source) => source.id),
      auth: settings.auth.mode,
    },
    "RAG server ready",
  );
  if (settings.auth.mode === "none") {
    logger.warn(
      "AUTH_MODE=none: every caller reads only the documents everyone may read, and may sync any source; set AUTH_MODE=jwt with AUTH_JWKS_URL, AUTH_ISSUER and AUTH_AUDIENCE so each user reads what they may",
    );
  }
  announceReady({ agent: "rag-server", port: server.port, url: server.url });
  return { drain: () => server.stop() };
});
