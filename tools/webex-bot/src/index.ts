import { createLogger, isSwitchboardError } from "@switchboard/common";
import { announceReady } from "@switchboard/contract";
import { startTracing, tracingEnabled } from "@switchboard/slack-bot/relay";
import { startWebexBot } from "./app.js";
import { readWebexBotSettings } from "./env.js";

const logger = createLogger({ base: { agent: "webex-bot" } });
try {
  const settings = readWebexBotSettings(process.env);
  const tracing = tracingEnabled(process.env)
    ? await startTracing(process.env.OTEL_SERVICE_NAME?.trim() || "switchboard-webex-bot")
    : undefined;
  const bot = await startWebexBot(settings, logger);
  logger.info(
    { url: bot.url, supervisor: settings.supervisorUrl, webhooks: settings.webhookUrl ?? "not registered" },
    "Webex bot ready",
  );
  logger.warn(
    "AUTH_MODE=none: every Webex user acts as the one local principal (shared history and permissions); only the asker can press a confirmation's buttons",
  );
  announceReady({ agent: "webex-bot", port: bot.port, url: bot.url });
  const stop = async () => {
    await bot.stop();
    await tracing?.shutdown();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
} catch (error) {
  const message = isSwitchboardError(error) ? error.message : String(error);
  logger.fatal({ err: isSwitchboardError(error) ? undefined : error }, `Webex bot cannot start: ${message}`);
  process.exit(1);
}
