import { AgentCard } from "@a2a-js/sdk";
import { legacyAgentCardRouter } from "@a2a-js/sdk/compat/v0_3/server/express";
import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import { jsonRpcHandler, restHandler } from "@a2a-js/sdk/server/express";
import type { Logger } from "@switchboard/common";
import express, { type ErrorRequestHandler } from "express";
import { AG_UI_PATH, agUiRun } from "../ag-ui/route.js";
import type { AuditTrail } from "../audit/audit-trail.js";
import { type AuthSettings, bearerGuard, callerOf } from "../auth/bearer.js";
import type { Access } from "../authz/access.js";
import { type ConversationStore, deleteConversation } from "../conversations/deletion.js";
import { listConversations, readConversation } from "../conversations/history.js";
import type { LinkedTokenRoutes } from "../credentials/linked-route.js";
import type { AgentRoute } from "../extension.js";
import type { RuntimeMetrics } from "../telemetry/metrics.js";
import { JSONRPC_PATH, REST_PATH } from "./card.js";
import { countedRequestHandler } from "./counted-handler.js";
import { reachGuard } from "./reach-guard.js";
import { checkParams, findBadParams } from "./request-checks.js";
import { sseHeartbeat } from "./sse-heartbeat.js";

export interface AgentAppDeps {
  agent: string;
  requestHandler: A2ARequestHandler;
  logger: Logger;
  /** Whether the agent can serve turns now (its checkpoint store answers). */
  ready: () => Promise<boolean>;
  /** True once the process is shutting down: not ready, and new A2A requests are turned away. */
  draining: () => boolean;
  /** Largest accepted request body. */
  maxBodyBytes: number;
  /** Whether push-notification webhooks may be on loopback, link-local or private networks. */
  allowPrivateWebhooks: boolean;
  /** Bearer-token verification for the A2A endpoints (AUTH_MODE). */
  auth: AuthSettings;
  /** Where this agent keeps conversations, for /conversations (list, read, delete). */
  conversations: ConversationStore;
  /** The agent's registry, served at /metrics, and the A2A request counter in it. */
  metrics: Pick<RuntimeMetrics, "registry" | "a2aRequests">;
  /** Routes of the agent's own (see AgentRoutes): behind the same bearer check as the built-in ones. */
  routes: AgentRoute[];
  /** The agent's audit trail, at GET /audit for those its policy allows (see AuditTrail). */
  audit: AuditTrail;
  /** The caller's own tokens for the agent's vendor (see LinkedTokenRoutes). */
  linkedTokens: LinkedTokenRoutes;
  /** The agent's policies: every caller's route below is decided by `reach` first (reach-guard.ts). */
  access: Access;
}

const legacyCompat = { enabled: true };
const JSON_TYPES = ["application/json", "application/a2a+json"];

/** The agent's HTTP surface: agent card, A2A over JSON-RPC and HTTP+JSON, health, readiness, metrics. */
export function createAgentApp(deps: AgentAppDeps): express.Express {
  const app = express();
  app.disable("x-powered-by");
  const { registry, a2aRequests } = deps.metrics;
  const requestHandler = countedRequestHandler(deps.requestHandler, a2aRequests);
  const userBuilder = callerOf;

  app.get("/health", (_req, res) => {
    res.json({ status: "ok", agent: deps.agent });
  });
  app.get("/ready", async (_req, res) => {
    if (deps.draining()) {
      res
        .status(503)
        .json({ status: "draining", agent: deps.agent, reason: "this replica is shutting down" });
      return;
    }
    const ready = await deps.ready();
    res.status(ready ? 200 : 503).json(
      ready
        ? { status: "ready", agent: deps.agent }
        : {
            status: "unavailable",
            agent: deps.agent,
            reason: "the checkpoint store (MongoDB) is not reachable",
          },
    );
  });
  app.get("/metrics", async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });

  // v0.3 clients get the SDK's translated card; v1 clients the protocol JSON of the card (the SDK's
  // own v1 route writes the internal object, which garbles securitySchemes).
  const card = express.Router();
  card.use(legacyAgentCardRouter({ agentCardProvider: requestHandler }));
  card.get("/", async (_req, res) => {
    res.json(AgentCard.toJSON(await requestHandler.getAgentCard()));
  });
  app.use("/.well-known/agent-card.json", card);
  app.use("/.well-known/agent.json", card); // the card's path before A2A 0.3

  // Bodies are parsed here, with our limit and clear errors; the SDK's own parser then skips them.
  // A replica shutting down finishes what it has and takes nothing new: the request can go to another.
  app.use((req, res, next) => {
    if (!deps.draining() || req.method === "GET") return next();
    res.status(503).set({ "retry-after": "1", connection: "close" }).json({
      error: "This agent replica is shutting down; send the request again (another replica takes it).",
    });
  });
  const parseJson = express.json({ limit: deps.maxBodyBytes, type: JSON_TYPES });
  app.post(
    JSONRPC_PATH,
    bearerGuard(deps.auth, "jsonrpc"),
    parseJson,
    jsonRpcBodyErrors(deps.maxBodyBytes, a2aRequests),
    checkParams("jsonrpc", deps.allowPrivateWebhooks, a2aRequests),
    sseHeartbeat(),
    jsonRpcHandler({ requestHandler, userBuilder, legacyCompat }),
  );
  app.use(
    REST_PATH,
    bearerGuard(deps.auth, "rest"),
    express.json({ limit: deps.maxBodyBytes, type: JSON_TYPES }),
    restBodyErrors(deps.maxBodyBytes),
    checkParams("rest", deps.allowPrivateWebhooks, a2aRequests),
    sseHeartbeat(),
    restHandler({ requestHandler, userBuilder, legacyCompat }),
  );

  // AG-UI (CopilotKit's protocol): a run is an A2A message on the same handler, as the same caller.
  app.post(
    AG_UI_PATH,
    bearerGuard(deps.auth, "rest"),
    parseJson,
    restBodyErrors(deps.maxBodyBytes),
    sseHeartbeat(),
    agUiRun({ agent: deps.agent, requestHandler, logger: deps.logger }),
  );

  // A caller's routes: a verified token, then the reach decision (as a turn's).
  const caller = [bearerGuard(deps.auth, "rest"), reachGuard(deps.access)];

  // The caller's own conversations (title, last activity) and one's history, for chat clients.
  app.get("/conversations", ...caller, async (req, res) => {
    res.json({ conversations: await listConversations(deps.conversations.tasks, await callerOf(req)) });
  });
  app.get("/conversations/:contextId", ...caller, async (req, res) => {
    const contextId = String(req.params.contextId);
    const problem = findBadParams({ id: contextId });
    if (problem) return res.status(400).json({ error: `Invalid ${problem}.` });
    const history = await readConversation(deps.conversations.tasks, await callerOf(req), contextId);
    if (!history) return res.status(404).json({ error: `You have no conversation ${contextId}.` });
    res.json(history);
  });
  // Deletes the caller's conversation from this agent (then runs the agent's own deletion hooks).
  app.delete("/conversations/:contextId", ...caller, async (req, res) => {
    const contextId = String(req.params.contextId);
    const problem = findBadParams({ id: contextId });
    if (problem) return res.status(400).json({ error: `Invalid ${problem}.` });
    const user = await callerOf(req);
    res.json(await deleteConversation(deps.conversations, contextId, user));
  });

  // The agent's audit trail: with a policy, for those it allows the "audit" action on this agent;
  // without one, every line under AUTH_MODE=none, and a signed-in caller's own lines under jwt.
  // An agent may serve its own GET /audit instead (the supervisor gathers its subagents' too).
  if (!deps.routes.some((route) => route.method === "get" && route.path === "/audit")) {
    app.get("/audit", ...caller, (req, res) => deps.audit.serve(req, res));
  }

  // The caller's linked tokens for this agent's vendor: list (never the token), link, unlink. An
  // agent may serve its own (the supervisor gathers its subagents').
  if (!deps.routes.some((route) => route.method === "get" && route.path === "/linked-tokens")) {
    app.get("/linked-tokens", ...caller, deps.linkedTokens.list);
    app.put("/linked-tokens/:vendor", ...caller, parseJson, deps.linkedTokens.link);
    app.post("/linked-tokens/:vendor", ...caller, parseJson, deps.linkedTokens.link);
    app.delete("/linked-tokens/:vendor", ...caller, deps.linkedTokens.unlink);
  }

  // The agent's own routes, after the built-in ones (which keep their paths).
  for (const route of deps.routes) {
    const body = route.method === "get" ? [] : [parseJson];
    app[route.method](route.path, ...caller, ...body, route.handler);
  }

  app.use((req, res) => {
    res
      .status(404)
      .json({ error: `Not found: ${req.method} ${req.path}. A2A is served at / (JSON-RPC) and /rest.` });
  });
  app.use(((error, _req, res, _next) => {
    if (res.headersSent) return res.end();
    // Express's own refusals (e.g. a path with broken %-encoding) carry a 4xx status: keep it.
    const status = (error as { status?: number }).status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      return res.status(status).json({ error: "The request could not be read." });
    }
    deps.logger.error({ err: error }, "unhandled request error");
    res.status(500).json({ error: "internal error" });
  }) as ErrorRequestHandler);
  return app;
}

function tooLarge(limit: number): string {
  return `Request body is larger than the ${Math.round(limit / 1024)} KiB limit.`;
}

/** body-parser's refusals (size, syntax, charset, encoding) as HTTP status and a sentence. */
function bodyError(
  error: unknown,
  limit: number,
): { status: number; message: string; parse: boolean } | undefined {
  const { type, status } = error as { type?: string; status?: number };
  if (type === "entity.too.large") return { status: 413, message: tooLarge(limit), parse: false };
  if (type === "entity.parse.failed" || error instanceof SyntaxError) {
    return { status: 400, message: "Invalid JSON payload.", parse: true };
  }
  if (type === "charset.unsupported" || type === "encoding.unsupported") {
    return {
      status: 415,
      message: "Send the body as UTF-8 JSON, without an unsupported Content-Encoding.",
      parse: false,
    };
  }
  if (typeof status === "number" && status >= 400 && status < 500) {
    return { status, message: "The request body could not be read.", parse: false };
  }
  return undefined;
}

function jsonRpcBodyErrors(limit: number, a2aRequests: RuntimeMetrics["a2aRequests"]): ErrorRequestHandler {
  return (error, _req, res, next) => {
    const refused = bodyError(error, limit);
    if (!refused) return next(error);
    a2aRequests.inc({ method: "unknown", outcome: "rejected" });
    // JSON-RPC reports a parse error in the body, over HTTP 200; other refusals keep their status.
    if (refused.parse)
      return res.json({ jsonrpc: "2.0", id: null, error: { code: -32700, message: refused.message } });
    return res
      .status(refused.status)
      .json({ jsonrpc: "2.0", id: null, error: { code: -32600, message: refused.message } });
  };
}

function restBodyErrors(limit: number): ErrorRequestHandler {
  return (error, _req, res, next) => {
    const refused = bodyError(error, limit);
    if (!refused) return next(error);
    return res
      .status(refused.status)
      .json({ error: { code: refused.status, status: "INVALID_ARGUMENT", message: refused.message } });
  };
}
