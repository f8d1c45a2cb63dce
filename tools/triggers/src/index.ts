#!/usr/bin/env node
import { startServiceTracing } from "@switchboard/agent-runtime/telemetry/service-tracing";
import { runProcess } from "@switchboard/common";
import { announceReady } from "@switchboard/contract";
import { startTriggers } from "./app.js";
import { readTriggersSettings } from "./env.js";
import { runIdGenerator } from "./run-trace.js";

await runProcess("triggers", "Trigger receiver", async (logger) => {
  const settings = readTriggersSettings(process.env);
  // Each run is a trace of its own whose id is the run's (run-trace.ts), when tracing is on.
  const tracing = await startServiceTracing(process.env, "triggers", logger, runIdGenerator);
  const service = await startTriggers(settings, process.env, logger);
  logger.info({ url: service.url, supervisor: settings.supervisorUrl }, "Trigger receiver ready");
  if (!settings.identity)
    logger.warn(
      "AUTH_MODE=none: triggered runs act as the one local principal; set AUTH_MODE=jwt with DYNAMIC_AGENTS_OAUTH2_* so they act as this service's own principal",
    );
  announceReady({ agent: "triggers", port: service.port, url: service.url });
  return {
    drain: async () => {
      await service.stop();
      await tracing?.shutdown();
    },
  };
});
