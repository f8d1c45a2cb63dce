import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { type Logger, listenHttp } from "@switchboard/common";
import type { Request, Response } from "express";
import { mcpAuthorization } from "./auth.js";
import type { McpServerSettings } from "./env.js";
import { Supervisor } from "./supervisor.js";
import { switchboardMcpServer } from "./tools.js";

export interface RunningMcpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:3002/mcp. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

const MCP_PATH = "/mcp";

interface Session {
  transport: StreamableHTTPServerTransport;
  /** Whose session it is: every request in it must come with a token of the same user. */
  subject: string;
  lastSeen: number;
}

/** A session no request has touched for this long is closed (a client that went away never says so). */
const SESSION_IDLE_MS = 30 * 60_000;

/**
 * The remote MCP server: Streamable HTTP at /mcp, sessions kept in memory (an elicitation's answer
 * comes back on a request of its own, which must reach the call that waits for it), each session
 * bound to the user who opened it. Under AUTH_MODE=jwt every request carries the user's own token,
 * verified here and passed to the supervisor with each call.
 */
export async function startMcpServer(settings: McpServerSettings, logger: Logger): Promise<RunningMcpServer> {
  const server: Server = createServer();
  const port = await listenHttp(server, settings.port, settings.host);
  const publicUrl = settings.publicUrl ?? `http://localhost:${port}${MCP_PATH}`;
  const supervisor = new Supervisor(settings.supervisorUrl, settings.turnTimeoutMs, logger);
  const sessions = new Map<string, Session>();
  const sweep = setInterval(() => {
    const idleSince = Date.now() - SESSION_IDLE_MS;
    for (const session of sessions.values()) if (session.lastSeen < idleSince) void session.transport.close();
  }, 60_000);
  sweep.unref();

  const app = createMcpExpressApp({ host: settings.host });
  app.get("/health", (_req, res) => res.json({ status: "ok" }));
  // Ready when the supervisor serves its card: without it no tool can answer.
  app.get("/ready", async (_req, res) => {
    const ready = await supervisor.reachable();
    res
      .status(ready ? 200 : 503)
      .json({ status: ready ? "ready" : "the supervisor (CAIPE_URL) is not reachable" });
  });
  const guards = [];
  if (settings.auth.mode === "jwt") {
    const authorization = mcpAuthorization({
      auth: settings.auth,
      issuer: settings.issuer as string,
      publicUrl,
      audience: settings.audience,
    });
    for (const path of authorization.metadataPaths) app.use(path, authorization.metadata);
    guards.push(authorization.guard);
  }
  const subjectOf = (req: Request) => String(req.auth?.extra?.subject ?? "");

  const handle = async (req: Request, res: Response) => {
    const sessionId = req.header("mcp-session-id");
    let session = sessionId ? sessions.get(sessionId) : undefined;
    // Another user's session id is as unknown as one that never was.
    if (session && session.subject !== subjectOf(req)) session = undefined;
    if (!session) {
      if (sessionId || req.method !== "POST" || !isInitializeRequest(req.body)) {
        res.status(sessionId ? 404 : 400).json({
          jsonrpc: "2.0",
          id: null,
          error: {
            code: -32000,
            message: sessionId
              ? "No such MCP session for you: initialize a new one."
              : "Start with an initialize request (no Mcp-Session-Id).",
          },
        });
        return;
      }
      const subject = subjectOf(req);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, { transport, subject, lastSeen: Date.now() });
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      const mcp = switchboardMcpServer({
        supervisor,
        webUrl: settings.webUrl,
        logger,
        tokenOf: (extra) => extra.authInfo?.token,
      });
      await mcp.connect(transport);
      session = { transport, subject, lastSeen: Date.now() };
    }
    session.lastSeen = Date.now();
    await session.transport.handleRequest(req, res, req.body);
  };
  app.all(MCP_PATH, ...guards, (req, res, next) => {
    handle(req, res).catch(next);
  });
  server.on("request", app);

  return {
    url: publicUrl,
    port,
    stop: async () => {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((session) => session.transport.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
