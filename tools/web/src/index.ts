import { createServer } from "node:http";
import { join } from "node:path";
import { createLogger, isSwitchboardError, listenHttp } from "@switchboard/common";
import { announceReady } from "@switchboard/contract";
import { createWebApp } from "./app.js";
import { readWebSettings } from "./env.js";
import { identityProviderOrigins } from "./identity-provider.js";
import { warnIfSupervisorIgnoresTokens } from "./supervisor-auth.js";

const logger = createLogger({ base: { agent: "web" } });
try {
  const settings = readWebSettings(process.env);
  const connectOrigins =
    settings.signIn.mode === "oidc" ? await identityProviderOrigins(settings.signIn.issuer, logger) : [];
  if (settings.signIn.mode === "oidc") await warnIfSupervisorIgnoresTokens(settings.supervisorUrl, logger);
  const app = createWebApp({
    supervisorUrl: settings.supervisorUrl,
    ...(settings.slackBotUrl ? { slackBotUrl: settings.slackBotUrl } : {}),
    ...(settings.webexBotUrl ? { webexBotUrl: settings.webexBotUrl } : {}),
    ...(settings.dynamicAgentsUrl ? { dynamicAgentsUrl: settings.dynamicAgentsUrl } : {}),
    ...(settings.triggersUrl ? { triggersUrl: settings.triggersUrl } : {}),
    ...(settings.ragServerUrl ? { ragServerUrl: settings.ragServerUrl } : {}),
    signIn: settings.signIn,
    publicDir: join(import.meta.dirname, "public"),
    connectOrigins,
    logger,
  });
  const server = createServer(app);
  const port = await listenHttp(server, settings.port, settings.host);
  const url = `http://localhost:${port}`;
  logger.info(
    {
      url,
      supervisor: settings.supervisorUrl.origin,
      dynamicAgents: settings.dynamicAgentsUrl?.origin ?? "off",
      knowledge: settings.ragServerUrl?.origin ?? "off",
      signIn: settings.signIn.mode,
    },
    "web chat ready",
  );
  announceReady({ agent: "web", port, url });
  const stop = () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
} catch (error) {
  const message = isSwitchboardError(error) ? error.message : String(error);
  logger.fatal({ err: isSwitchboardError(error) ? undefined : error }, `web chat cannot start: ${message}`);
  process.exit(1);
}
