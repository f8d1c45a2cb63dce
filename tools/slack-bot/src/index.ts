import { runProcess } from "@switchboard/common";
import { announceReady } from "@switchboard/contract";
import { startSlackBot } from "./app.js";
import { readSlackBotSettings } from "./env.js";
import { startTracing, tracingEnabled } from "./telemetry/tracing.js";

await runProcess("slack-bot", "Slack bot", async (logger) => {
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
  return {
    drain: async () => {
      await bot.stop();
      await tracing?.shutdown();
    },
  };
});
