import { runProcess } from "@switchboard/common";
import { announceReady } from "@switchboard/contract";
import { startTracing, tracingEnabled } from "@switchboard/slack-bot/relay";
import { startWebexBot } from "./app.js";
import { readWebexBotSettings } from "./env.js";

await runProcess("webex-bot", "Webex bot", async (logger) => {
  const settings = readWebexBotSettings(process.env);
  const tracing = tracingEnabled(process.env)
    ? await startTracing(process.env.OTEL_SERVICE_NAME?.trim() || "switchboard-webex-bot")
    : undefined;
  const bot = await startWebexBot(settings, logger);
  logger.info(
    { url: bot.url, supervisor: settings.supervisorUrl, webhooks: settings.webhookUrl ?? "not registered" },
    "Webex bot ready",
  );
  if (settings.identity.mode === "none")
    logger.warn(
      "AUTH_MODE=none: every Webex user acts as the one local principal (shared history and permissions); only the asker can press a confirmation's buttons",
    );
  announceReady({ agent: "webex-bot", port: bot.port, url: bot.url });
  return {
    drain: async () => {
      await bot.stop();
      await tracing?.shutdown();
    },
  };
});
