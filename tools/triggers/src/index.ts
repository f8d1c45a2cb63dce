#!/usr/bin/env node
import { runProcess } from "@switchboard/common";
import { announceReady } from "@switchboard/contract";
import { startTriggers } from "./app.js";
import { readTriggersSettings } from "./env.js";

await runProcess("triggers", "Trigger receiver", async (logger) => {
  const settings = readTriggersSettings(process.env);
  const service = await startTriggers(settings, process.env, logger);
  logger.info({ url: service.url, supervisor: settings.supervisorUrl }, "Trigger receiver ready");
  if (!settings.identity)
    logger.warn(
      "AUTH_MODE=none: triggered runs act as the one local principal; set AUTH_MODE=jwt with DYNAMIC_AGENTS_OAUTH2_* so they act as this service's own principal",
    );
  announceReady({ agent: "triggers", port: service.port, url: service.url });
  return { drain: () => service.stop() };
});
