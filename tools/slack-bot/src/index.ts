import { createLogger, isSwitchboardError } from "@switchboard/common";
import { announceReady } from "@switchboard/contract";
import { startSlackBot } from "./app.js";
import { readSlackBotSettings } from "./env.js";
import { startTracing, tracingEnabled } from "./telemetry/tracing.js";

const logger = createLogger({ base: { agent: "slack-bot" } });
try {
  const settings = readSlackBotSettings(process.env);
  const tracing = tracingEnabled(process.env)
    ? await startTracing(process.env.OTEL_SERVICE_NAME?.trim() || "switchboard-slack-bot")
    : undefined;
  const bot = await startSlackBot(settings, logger);
  logger.info(
    {
      url: bot.url,
      mode: settings.transport.mode,
      supervisor: settings.supervisorUrl,
      identity: settings.identity.mode,
    },
    "Slack bot ready",
  );
  if (settings.identity.mode === "none") {
    logger.warn(
      "AUTH_MODE=none: every Slack user acts as the one local principal (shared history and permissions); set AUTH_MODE=jwt with OIDC_ISSUER, OIDC_CLIENT_ID and CREDENTIALS_ENCRYPTION_KEY so each acts as themselves",
    );
  }
  announceReady({ agent: "slack-bot", port: bot.port, url: bot.url });
  const stop = async () => {
    await bot.stop();
    await tracing?.shutdown();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
} catch (error) {
  const message = isSwitchboardError(error) ? error.message : String(error);
  logger.fatal({ err: isSwitchboardError(error) ? undefined : error }, `Slack bot cannot start: ${message}`);
  process.exit(1);
}
