import { createServer, type Server } from "node:http";
import { AgentLink } from "@switchboard/a2a-client";
import { HttpStatusError } from "@switchboard/agent-runtime";
import { readSealingKey } from "@switchboard/agent-runtime/sealing";
import { type Logger, listenHttp, SwitchboardError } from "@switchboard/common";
import {
  forgetRoute,
  LinkedIdentities,
  type LinkingBot,
  linkRoutes,
  OidcClient,
} from "@switchboard/slack-bot/identity";
import {
  anonymousIdentities,
  createRelayMetrics,
  type Identities,
  Relay,
  relayCollections,
} from "@switchboard/slack-bot/relay";
import express from "express";
import { MongoClient } from "mongodb";
import type { WebexBotSettings } from "./env.js";
import { WebexApi } from "./webex/api.js";
import { askToConfirmLink, type LinkPressDeps } from "./webex/link-confirmation.js";
import { registerWebhooks } from "./webex/registration.js";
import { type CardRecord, WebexPlatform } from "./webex/webex-platform.js";
import { EVENTS_PATH, webhookRoutes } from "./webex/webhooks.js";

/** The bot's name in its collections (`<kind>_webex-bot`), apart from the Webex agent's and the Slack bot's. */
const SELF = "webex-bot";

/** How Webex users link their sign-in: the Slack bot's linking, on Webex (the web chat forwards /webex/link). */
const WEBEX_LINKING: LinkingBot = {
  self: SELF,
  linkPath: "/webex/link",
  platform: "Webex",
  confirmWhere: "in your direct space with the bot",
  emailFix: "Ask your Webex admin to give the account an email",
};

export interface WebexBot {
  /** The bot's HTTP server, e.g. `http://127.0.0.1:3003`. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts the Webex bot: who it is at Webex (/people/me), MongoDB, its HTTP server (Webex's signed
 * webhooks, /health, /ready, /metrics) and, with WEBEX_WEBHOOK_URL, its webhooks registered at Webex.
 * Resolves once Webex can deliver to it.
 */
export async function startWebexBot(settings: WebexBotSettings, logger: Logger): Promise<WebexBot> {
  const api = new WebexApi(settings.apiUrl, settings.token);
  const me = await whoAmI(api, settings.apiUrl);
  const mongo = new MongoClient(settings.mongo.uri, { serverSelectionTimeoutMS: 10_000 });
  await mongo.connect();
  const db = mongo.db(settings.mongo.dbName);
  const collections = await relayCollections(db, SELF);
  const metrics = createRelayMetrics();
  const supervisor = new AgentLink(
    settings.supervisorUrl,
    settings.turnTimeoutMs,
    logger.child({ component: "a2a-client" }),
  );
  const platform = new WebexPlatform(api, db.collection<CardRecord>(`cards_${SELF}`));
  const http = express();
  http.disable("x-powered-by");
  http.set("trust proxy", "loopback, linklocal, uniquelocal");

  let identities: Identities = anonymousIdentities;
  let links: LinkPressDeps | undefined;
  if (settings.identity.mode === "linked") {
    const linked = new LinkedIdentities({
      db,
      oidc: new OidcClient(settings.identity.issuer, settings.identity.clientId, settings.identity.scope),
      sealingKey: readSealingKey(settings.identity.sealingKey),
      platform: platform.name,
      bot: WEBEX_LINKING,
      webUrl: settings.webUrl,
      // The email Webex has for the person now (Webex signs people in by it): the tie to the sign-in.
      emailOf: async (_org, user) => (await api.person(user)).emails[0],
      logger,
    });
    await linked.init();
    identities = linked;
    links = { api, identities: linked, orgId: me.orgId, metrics, logger };
    http.use(
      linkRoutes({
        identities: linked,
        bot: WEBEX_LINKING,
        askToConfirm: (pending) => askToConfirmLink(api, pending),
        logger,
      }),
    );
    http.use(forgetRoute(linked, WEBEX_LINKING, settings.identity.auth, logger));
  }
  const relay = new Relay({
    platform,
    collections,
    identities,
    supervisor,
    metrics,
    logger,
    updateIntervalMs: settings.updateIntervalMs,
    turnTimeoutMs: settings.turnTimeoutMs,
    // A press on a triggered run's card (tools/triggers posts it as this bot) goes on to the receiver.
    ...(settings.triggersUrl ? { triggersUrl: settings.triggersUrl } : {}),
  });

  http.use(
    webhookRoutes({
      api,
      me,
      botName: settings.botName ?? me.displayName,
      secret: settings.webhookSecret,
      relay,
      collections,
      metrics,
      logger,
      ...(links ? { links } : {}),
    }),
  );
  http.get("/health", (_req, res) => {
    res.json({ status: "ok", service: SELF });
  });
  http.get("/ready", async (_req, res) => {
    const mongoUp = await db.command({ ping: 1 }).then(
      () => true,
      () => false,
    );
    res.status(mongoUp ? 200 : 503).json({
      status: mongoUp ? "ready" : "not ready",
      service: SELF,
      mongodb: mongoUp ? "up" : "down",
      supervisor: (await supervisor.reachable()) ? "up" : "down",
    });
  });
  http.get("/metrics", async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  const server: Server = createServer(http);
  const port = await listenHttp(server, settings.port, settings.host);
  if (settings.webhookUrl) {
    const target = `${settings.webhookUrl.replace(/\/+$/, "")}${EVENTS_PATH}`;
    await registerWebhooks(api, target, settings.webhookSecret);
    logger.info({ target }, "registered the bot's Webex webhooks (messages, attachment actions)");
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await mongo.close();
    },
  };
}

/** The bot at Webex (`/people/me`); a refused token or an unreachable Webex stops the start, saying which setting to check. */
async function whoAmI(api: WebexApi, apiUrl: string) {
  try {
    return await api.me();
  } catch (error) {
    const refused = error instanceof HttpStatusError && (error.status === 401 || error.status === 403);
    throw new SwitchboardError(
      "webex-bot.config",
      "user",
      refused
        ? `Webex refused the bot's access token (HTTP ${(error as HttpStatusError).status} at /people/me): set WEBEX_TOKEN (or WEBEX_INTEGRATION_BOT_ACCESS_TOKEN) to the bot's token from developer.webex.com.`
        : `Webex did not answer at ${apiUrl}/people/me (${error instanceof HttpStatusError ? `HTTP ${error.status}` : (error as Error).name}): check WEBEX_API_URL and the network.`,
    );
  }
}
