import { AgentCard } from "@a2a-js/sdk";
import { legacyAgentCardRouter } from "@a2a-js/sdk/compat/v0_3/server/express";
import type { A2ARequestHandler } from "@a2a-js/sdk/server";
import { jsonRpcHandler, restHandler } from "@a2a-js/sdk/server/express";
import type { Logger } from "@switchboard/utils/logger";
import { a2aRequests, metricsRegistry } from "@switchboard/utils/metrics";
import express, { type ErrorRequestHandler } from "express";
import { type AuthSettings, bearerGuard, callerOf } from "./auth.js";
import { tokenOf } from "./caller.js";
import { JSONRPC_PATH, REST_PATH } from "./card.js";
import { type ConversationStore, deleteConversation } from "./conversations.js";
import { countedRequestHandler } from "./counted-handler.js";
import { checkIds, findBadId } from "./request-checks.js";

export interface AgentAppDeps {
  agent: string;
  requestHandler: A2ARequestHandler;
  logger: Logger;
  /** Whether the agent can serve turns now (its checkpoint store answers). */
  ready: () => Promise<boolean>;
  /** Largest accepted request body. */
  maxBodyBytes: number;
  /** Bearer-token verification for the A2A endpoints (AUTH_MODE). */
  auth: AuthSettings;
  /** Where this agent keeps conversations, for DELETE /conversations/:contextId. */
  conversations: ConversationStore;
}

const legacyCompat = { enabled: true };
const JSON_TYPES = ["application/json", "application/a2a+json"];

/** The agent's HTTP surface: agent card, A2A over JSON-RPC and HTTP+JSON, health, readiness, metrics. */
export function createAgentApp(deps: AgentAppDeps): express.Express {
  const app = express();
  app.disable("x-powered-by");
  const requestHandler = countedRequestHandler(deps.requestHandler);
  const userBuilder = callerOf;

  app.get("/health", (_req, res) => {
    res.json({ status: "ok", agent: deps.agent });
  });
  app.get("/ready", async (_req, res) => {
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
    res.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
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
  const parseJson = express.json({ limit: deps.maxBodyBytes, type: JSON_TYPES });
  app.post(
    JSONRPC_PATH,
    bearerGuard(deps.auth, "jsonrpc"),
    parseJson,
    jsonRpcBodyErrors(deps.maxBodyBytes),
    checkIds("jsonrpc"),
    jsonRpcHandler({ requestHandler, userBuilder, legacyCompat }),
  );
  app.use(
    REST_PATH,
    bearerGuard(deps.auth, "rest"),
    express.json({ limit: deps.maxBodyBytes, type: JSON_TYPES, strict: false }),
    restBodyErrors(deps.maxBodyBytes),
    checkIds("rest"),
    restHandler({ requestHandler, userBuilder, legacyCompat }),
  );

  // Deletes the caller's conversation from this agent (and, on the supervisor, its subagents).
  app.delete("/conversations/:contextId", bearerGuard(deps.auth, "rest"), async (req, res) => {
    const contextId = String(req.params.contextId);
    const problem = findBadId({ message: { contextId } });
    if (problem) return res.status(400).json({ error: `Invalid ${problem}.` });
    const user = await callerOf(req);
    res.json(await deleteConversation(deps.conversations, contextId, user, tokenOf(user)));
  });

  app.use(((error, _req, res, _next) => {
    deps.logger.error({ err: error }, "unhandled request error");
    if (res.headersSent) return res.end();
    res.status(500).json({ error: "internal error" });
  }) as ErrorRequestHandler);
  return app;
}

function tooLarge(limit: number): string {
  return `Request body is larger than the ${Math.round(limit / 1024)} KiB limit.`;
}

function jsonRpcBodyErrors(limit: number): ErrorRequestHandler {
  return (error, _req, res, next) => {
    const type = (error as { type?: string }).type;
    if (type === "entity.too.large") {
      a2aRequests.inc({ method: "unknown", outcome: "rejected" });
      return res
        .status(413)
        .json({ jsonrpc: "2.0", id: null, error: { code: -32600, message: tooLarge(limit) } });
    }
    if (type === "entity.parse.failed" || error instanceof SyntaxError) {
      a2aRequests.inc({ method: "unknown", outcome: "rejected" });
      return res.json({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32700, message: "Invalid JSON payload." },
      });
    }
    next(error);
  };
}

function restBodyErrors(limit: number): ErrorRequestHandler {
  return (error, _req, res, next) => {
    const type = (error as { type?: string }).type;
    if (type === "entity.too.large") {
      return res
        .status(413)
        .json({ error: { code: 413, status: "INVALID_ARGUMENT", message: tooLarge(limit) } });
    }
    if (type === "entity.parse.failed" || error instanceof SyntaxError) {
      return res
        .status(400)
        .json({ error: { code: 400, status: "INVALID_ARGUMENT", message: "Invalid JSON payload." } });
    }
    next(error);
  };
}
