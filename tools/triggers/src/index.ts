#!/usr/bin/env node
import { createLogger, isSwitchboardError } from "@switchboard/common";
import { announceReady } from "@switchboard/contract";
import { startTriggers } from "./app.js";
import { readTriggersSettings } from "./env.js";

const logger = createLogger({ base: { agent: "triggers" } });
try {
  const settings = readTriggersSettings(process.env);
  const service = await startTriggers(settings, process.env, logger);
  logger.info({ url: service.url, supervisor: settings.supervisorUrl }, "Trigger receiver ready");
  if (!settings.identity)
    logger.warn(
      "AUTH_MODE=none: triggered runs act as the one local principal; set AUTH_MODE=jwt with DYNAMIC_AGENTS_OAUTH2_* so they act as this service's own principal",
    );
  announceReady({ agent: "triggers", port: service.port, url: service.url });
  const stop = async () => {
    await service.stop();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
} catch (error) {
  const message = isSwitchboardError(error) ? error.message : String(error);
  logger.fatal(
    { err: isSwitchboardError(error) ? undefined : error },
    `Trigger receiver cannot start: ${message}`,
  );
  process.exit(1);
}
