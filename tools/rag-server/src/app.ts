import { createServer } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { loadPolicies, type Principal } from "@switchboard/agent-runtime";
import { type Logger, listenHttp } from "@switchboard/common";
import { type KnowledgeStore, openConfiguredKnowledgeStore } from "@switchboard/knowledge";
import express, { type NextFunction, type Request, type Response } from "express";
import { SourceAccess } from "./access.js";
import { ANONYMOUS, callerOf } from "./caller.js";
import { datasourcesRouter } from "./datasources.js";
import type { RagServerSettings } from "./env.js";
import { knowledgeMcpServer } from "./mcp-tools.js";
import { SyncLeases } from "./sync-lease.js";
import { Syncer } from "./syncer.js";

export interface RunningRagServer {
  /** The base URL (RAG_SERVER_URL): MCP at /mcp, health at /healthz, the API under /v1. */
  url: string;
  port: number;
  store: KnowledgeStore;
  syncer: Syncer;
  stop(): Promise<void>;
}

const PRINCIPAL = Symbol("rag-server.principal");
type WithPrincipal = Request & { [PRINCIPAL]?: Principal };

/**
 * Switchboard's knowledge base served as CAIPE's RAG server is: `/health`, `/healthz` (CAIPE's
 * answer), `/mcp` (CAIPE's three tools, stateless Streamable HTTP), the datasources API, and the
 * sources' schedules. Every request's principal comes from its verified bearer token alone.
 */
export async function startRagServer(
  settings: RagServerSettings,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<RunningRagServer> {
  const store = await openConfiguredKnowledgeStore(settings.knowledge, env);
  const policies = loadPolicies(settings.authz, logger);
  const leases = await SyncLeases.open(store.engine, settings.syncLeaseMs);
  const syncer = new Syncer({ store, leases, env, logger });
  const access = new SourceAccess(policies?.engine, settings.auth.mode);
  if (
    settings.auth.mode === "jwt" &&
    !policies &&
    settings.sources.some((source) => !source.admins?.length)
  ) {
    logger.warn(
      "Sources without admins and no policy (AUTHZ_POLICY_FILE or RBAC_ADMIN_GROUPS): nobody may sync them on demand or upload to them; their schedules still run.",
    );
  }

  const app = express();
  app.disable("x-powered-by");
  app.get("/health", (_req, res) => {
    res.json({ status: "ok" });
  });
  // CAIPE's readiness answer (and the fleet's /ready): 200 when the store answers, 503 with why otherwise.
  app.get(["/healthz", "/ready"], async (_req, res) => {
    const timestamp = Math.floor(Date.now() / 1000);
    const config = { graph_rag_enabled: false };
    try {
      await store.engine.query("SELECT 1");
      res.json({ status: "healthy", timestamp, details: {}, config });
    } catch {
      res.status(503).json({
        status: "unhealthy",
        timestamp,
        details: { error: "the knowledge store does not answer" },
        config,
      });
    }
  });

  // Who asks, for every route below: from the verified token only; a bad token is a 401, never anonymous.
  app.use(async (req: WithPrincipal, res, next) => {
    const caller = await callerOf(settings.auth, settings.authz.groupClaims, req.header("authorization"));
    if ("refused" in caller) {
      res.status(401).json({ error: "unauthorized", reason: caller.refused });
      return;
    }
    req[PRINCIPAL] = caller.principal;
    next();
  });
  const principalOf = (req: Request) => (req as WithPrincipal)[PRINCIPAL] ?? ANONYMOUS;

  app.all("/mcp", async (req, res, next) => {
    const principal = principalOf(req);
    if (settings.requireToken && !principal.authenticated) {
      res.status(401).json({ error: "unauthorized", reason: "Missing or malformed Authorization header." });
      return;
    }
    // Stateless: a server and transport for each request, answering as that request's principal.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const mcp = knowledgeMcpServer(store, principal, logger);
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    try {
      await mcp.connect(transport);
      await transport.handleRequest(req, res);
    } catch (error) {
      next(error);
    }
  });

  app.use(
    datasourcesRouter({
      store,
      sources: settings.sources,
      access,
      syncer,
      logger,
      maxUploadBytes: settings.maxUploadBytes,
      principalOf,
    }),
  );
  app.use((_req, res) => {
    res.status(404).json({ detail: "Not Found" });
  });
  // A body past its limit, or a failure: the status and words, never a stack.
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: number }).status;
    if (status === 413) {
      res.status(413).json({
        detail: `The upload is larger than MAX_LOCAL_FILE_UPLOAD_BYTES (${settings.maxUploadBytes}) allows: split it, or raise the setting.`,
      });
      return;
    }
    logger.error({ err: error }, "request failed");
    if (!res.headersSent)
      res
        .status(status && status >= 400 && status < 500 ? status : 500)
        .json({ detail: "The request failed; the server's log says why." });
  });

  const server = createServer(app);
  const port = await listenHttp(server, settings.port, settings.host);
  syncer.start(settings.sources);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    store,
    syncer,
    stop: async () => {
      await syncer.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      policies?.close();
      await store.close();
    },
  };
}
