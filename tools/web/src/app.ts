import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "@switchboard/common";
import express, { type ErrorRequestHandler, type Request, type Response } from "express";
import { A2A_PATH, cardForPage } from "./card.js";
import { dynamicAgentsRoutes } from "./dynamic-agents.js";
import type { SignIn } from "./env.js";
import { forward, type Upstream } from "./forward.js";
import { knowledgeRoutes } from "./knowledge.js";
import { securityHeaders } from "./security.js";
import { offerSlackLink } from "./slack-link.js";
import { triggersRoutes } from "./triggers.js";
import { offerWebexLink } from "./webex-link.js";

export interface WebAppDeps {
  supervisorUrl: URL;
  /** CAIPE's dynamic-agents host (DYNAMIC_AGENTS_URL), whose agent API the Configure agents page uses; unset: off. */
  dynamicAgentsUrl?: URL;
  /** The knowledge base's RAG server (RAG_SERVER_URL when ENABLE_RAG=true), for the Sources page; unset: off. */
  ragServerUrl?: URL;
  /** The Slack relay, whose account-link pages this server offers (SLACK_BOT_URL). */
  slackBotUrl?: URL;
  /** The trigger receiver, whose run history the Triggers page shows (TRIGGERS_URL); unset: the page is hidden. */
  triggersUrl?: URL;
  /** The Webex bot, whose account-link pages this server offers (WEBEX_BOT_URL). */
  webexBotUrl?: URL;
  signIn: SignIn;
  /** The page's production build (index.html and assets/). */
  publicDir: string;
  /** Origins the page may call besides this server: the identity provider's endpoints. */
  connectOrigins: string[];
  logger: Logger;
}

/** The supervisor's own routes the page uses, offered under /api, with the methods it may send. */
const SUPERVISOR_ROUTES: Record<string, string[]> = {
  "/conversations": ["GET"],
  "/conversations/:contextId": ["GET", "DELETE"],
  "/subagents": ["GET"],
  "/linked-tokens": ["GET"],
  "/linked-tokens/:vendor": ["PUT", "DELETE"],
  "/audit": ["GET"],
  "/memories": ["GET", "DELETE"],
  "/memories/:id": ["DELETE"],
  "/me": ["DELETE"],
};

/**
 * The page's addresses: a new conversation, one conversation (client/route.ts), sign-in's return
 * (client/auth.ts), the side pages (client/side-pages.tsx).
 */
const PAGE_PATHS = [
  "/",
  "/c/:contextId",
  "/auth/callback",
  "/linked-tokens",
  "/audit",
  "/memories",
  "/configured-agents",
  "/triggers",
  "/sources",
];

const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found · Switchboard</title></head>' +
  '<body><h1>Not found</h1><p>There is no page at this address. <a href="/">Open the chat</a>.</p></body></html>';

/**
 * The web chat's server: the page (a static production build), its settings, and the supervisor's
 * A2A endpoints and conversation routes forwarded on the same origin, so the browser needs no CORS.
 */
export function createWebApp(deps: WebAppDeps): express.Express {
  const app = express();
  app.disable("x-powered-by");
  // Behind an ingress or load balancer on a private network, the page's origin is the forwarded one.
  app.set("trust proxy", "loopback, linklocal, uniquelocal");
  app.use(securityHeaders(deps.connectOrigins));

  app.get("/health", (_req, res) => {
    res.json({ status: "ok", service: "web" });
  });
  // The page is served whatever the supervisor's state: it shows that state itself.
  app.get("/ready", (_req, res) => {
    res.json({ status: "ready", service: "web" });
  });
  app.get("/config.json", (_req, res) => {
    // `knowledge` only when there is a knowledge base (ENABLE_RAG): the page then offers its Sources page.
    res
      .set("cache-control", "no-store")
      .json({ signIn: deps.signIn, ...(deps.ragServerUrl ? { knowledge: true } : {}) });
  });

  offerSlackLink(app, deps.slackBotUrl, deps.logger);
  offerWebexLink(app, deps.webexBotUrl, deps.logger);
  const supervisor: Upstream = {
    url: deps.supervisorUrl,
    name: "the supervisor",
    fix: "Start the fleet (npm start) or set SWITCHBOARD_URL on the web server.",
  };
  app.get("/.well-known/agent-card.json", (req, res) => void pageCard(deps, req, res));
  app.use(A2A_PATH, (req, res) => forward(supervisor, deps.logger, req, res, req.url));
  for (const [route, methods] of Object.entries(SUPERVISOR_ROUTES)) {
    app.all(`/api${route}`, (req, res) => {
      if (!methods.includes(req.method)) return res.status(405).json({ error: "Method not allowed." });
      forward(supervisor, deps.logger, req, res, req.url.slice("/api".length));
    });
  }
  dynamicAgentsRoutes(app, deps.dynamicAgentsUrl, deps.logger);
  triggersRoutes(app, deps.triggersUrl, deps.logger);
  knowledgeRoutes(app, deps.ragServerUrl, deps.logger);
  const index = join(deps.publicDir, "index.html");
  app.use(
    "/assets",
    express.static(join(deps.publicDir, "assets"), { immutable: true, maxAge: "365d", fallthrough: false }),
  );
  app.use(express.static(deps.publicDir, { index: false, maxAge: 0 }));
  // Each page address is the one page, which routes itself.
  app.get(PAGE_PATHS, (_req, res) => {
    if (!existsSync(index)) {
      return res
        .status(503)
        .type("text")
        .send("The web chat is not built: run pnpm --filter @switchboard/web build (npm start builds it).");
    }
    res.set("cache-control", "no-cache").sendFile(index);
  });
  app.use((req, res) => {
    if (req.method === "GET" && req.accepts(["json", "html"]) === "html") {
      return res.status(404).type("html").send(NOT_FOUND_PAGE);
    }
    res.status(404).json({ error: `Not found: ${req.method} ${req.path}.` });
  });
  app.use(((error, _req, res, _next) => {
    if (res.headersSent) return res.end();
    const status = (error as { status?: number }).status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      return res.status(status).json({ error: "The request could not be served." });
    }
    deps.logger.error({ err: error }, "unhandled request error");
    res.status(500).json({ error: "internal error" });
  }) as ErrorRequestHandler);
  return app;
}

/** The supervisor's card, with its endpoints moved onto this origin (see cardForPage). */
async function pageCard(deps: WebAppDeps, req: Request, res: Response): Promise<void> {
  const url = new URL(".well-known/agent-card.json", withSlash(deps.supervisorUrl));
  try {
    const version = req.header("a2a-version");
    const answer = await fetch(url, {
      headers: version ? { "a2a-version": version } : {},
      signal: AbortSignal.timeout(10_000),
    });
    if (!answer.ok) {
      res.status(502).json({ error: `The supervisor answered HTTP ${answer.status} for its agent card.` });
      return;
    }
    const origin = `${req.protocol}://${req.host}`;
    res.set("cache-control", "no-store").json(cardForPage(await answer.json(), origin));
  } catch (error) {
    const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    res.status(502).json({
      error: `Cannot reach the supervisor at ${deps.supervisorUrl.origin} (${reason}). Start the fleet (npm start) or set SWITCHBOARD_URL on the web server.`,
    });
  }
}

function withSlash(url: URL): URL {
  return new URL(url.pathname.endsWith("/") ? url.href : `${url.href}/`);
}
