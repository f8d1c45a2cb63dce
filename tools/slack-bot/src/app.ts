import { createServer, type Server } from "node:http";
import { App, ExpressReceiver, LogLevel, type Logger as SlackLogger, SocketModeReceiver } from "@slack/bolt";
import { AgentLink } from "@switchboard/a2a-client";
import { readSealingKey } from "@switchboard/agent-runtime/sealing";
import { type Logger, listenHttp } from "@switchboard/common";
import express from "express";
import { MongoClient } from "mongodb";
import type { SlackBotSettings } from "./env.js";
import { forgetRoute } from "./identity/forget-route.js";
import { linkRoutes } from "./identity/link-routes.js";
import { LinkedIdentities, SLACK_LINKING } from "./identity/linked-identities.js";
import { OidcClient } from "./identity/oidc.js";
import { anonymousIdentities, type Identities } from "./relay/identities.js";
import { Relay } from "./relay/relay.js";
import { relayCollections } from "./relay/store.js";
import { askToConfirmLink, registerLinkConfirmation } from "./slack/link-confirmation.js";
import { registerSlackListeners } from "./slack/listeners.js";
import { SlackPlatform } from "./slack/slack-platform.js";
import { createRelayMetrics } from "./telemetry/metrics.js";

/** Where signed Events API requests (events and interactions) arrive in HTTP mode. */
export const EVENTS_PATH = "/slack/events";

export interface SlackBot {
  /** The relay's HTTP server, e.g. `http://127.0.0.1:3001`. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts the Slack relay: its HTTP server (/health, /ready, /metrics, the account link pages, and
 * in HTTP mode Slack's signed requests, verified by Bolt), MongoDB, and in Socket Mode Bolt's
 * WebSocket to Slack. Resolves once Slack can deliver events to it.
 */
export async function startSlackBot(settings: SlackBotSettings, logger: Logger): Promise<SlackBot> {
  const mongo = new MongoClient(settings.mongo.uri, { serverSelectionTimeoutMS: 10_000 });
  await mongo.connect();
  const db = mongo.db(settings.mongo.dbName);
  const collections = await relayCollections(db);
  const metrics = createRelayMetrics();
  const supervisor = new AgentLink(
    settings.supervisorUrl,
    settings.turnTimeoutMs,
    logger.child({ component: "a2a-client" }),
  );

  const http = express();
  http.disable("x-powered-by");
  http.set("trust proxy", "loopback, linklocal, uniquelocal");
  const slackLogger = boltLogger(logger.child({ component: "bolt" }));
  const receiver =
    settings.transport.mode === "socket"
      ? new SocketModeReceiver({
          appToken: settings.transport.appToken,
          logger: slackLogger,
          installerOptions: { clientOptions: { slackApiUrl: settings.slackApiUrl } },
        })
      : new ExpressReceiver({
          signingSecret: settings.transport.signingSecret,
          endpoints: EVENTS_PATH,
          app: http,
          logger: slackLogger,
        });
  const bolt = new App({
    token: settings.botToken,
    receiver,
    logger: slackLogger,
    clientOptions: { slackApiUrl: settings.slackApiUrl },
  });
  const platform = new SlackPlatform(bolt.client);

  let identities: Identities = anonymousIdentities;
  if (settings.identity.mode === "linked") {
    const linked = new LinkedIdentities({
      db,
      oidc: new OidcClient(settings.identity.issuer, settings.identity.clientId, settings.identity.scope),
      sealingKey: readSealingKey(settings.identity.sealingKey),
      platform: platform.name,
      bot: SLACK_LINKING,
      webUrl: settings.webUrl,
      emailOf: (_workspace, user) => platform.emailOf(user),
      logger,
    });
    await linked.init();
    identities = linked;
    http.use(
      linkRoutes({
        identities: linked,
        bot: SLACK_LINKING,
        askToConfirm: (pending) => askToConfirmLink(bolt.client, pending),
        logger,
      }),
    );
    http.use(forgetRoute(linked, SLACK_LINKING, settings.identity.auth, logger));
    registerLinkConfirmation(bolt, linked, metrics, logger);
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
    ...(settings.triggersUrl ? { triggersUrl: settings.triggersUrl } : {}),
  });
  registerSlackListeners(bolt, relay, metrics, logger);

  let slackConnected = settings.transport.mode === "http";
  if (receiver instanceof SocketModeReceiver) {
    // Not ready while Socket Mode reconnects: Slack holds events for a replica that is connected.
    receiver.client.on("connected", () => {
      slackConnected = true;
    });
    for (const state of ["reconnecting", "disconnected"]) {
      receiver.client.on(state, () => {
        slackConnected = false;
      });
    }
  }
  http.get("/health", (_req, res) => {
    res.json({ status: "ok", service: "slack-bot" });
  });
  http.get("/ready", async (_req, res) => {
    const mongoUp = await db.command({ ping: 1 }).then(
      () => true,
      () => false,
    );
    const ready = mongoUp && slackConnected;
    res.status(ready ? 200 : 503).json({
      status: ready ? "ready" : "not ready",
      service: "slack-bot",
      mongodb: mongoUp ? "up" : "down",
      slack: slackConnected ? "connected" : "connecting",
      supervisor: (await supervisor.reachable()) ? "up" : "down",
    });
  });
  http.get("/metrics", async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  const server: Server = createServer(http);
  const port = await listenHttp(server, settings.port, settings.host);
  if (settings.transport.mode === "socket") {
    await bolt.start();
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: async () => {
      if (settings.transport.mode === "socket") await bolt.stop().catch(() => {});
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await mongo.close();
    },
  };
}

/** Bolt's log lines through the relay's pino logger. */
function boltLogger(logger: Logger): SlackLogger {
  let level = LogLevel.INFO;
  const line =
    (method: "debug" | "info" | "warn" | "error") =>
    (...messages: unknown[]) =>
      logger[method](messages.map(String).join(" "));
  return {
    debug: line("debug"),
    info: line("info"),
    warn: line("warn"),
    error: line("error"),
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
