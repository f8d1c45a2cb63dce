import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { createDeskServer } from "./desk-server.js";
import { DeskStore } from "./store.js";

export interface McpHttpOptions {
  /** The server for one new session, given the credential its client presented. */
  create: (credential: string | undefined) => McpServer;
  /** When set, every request needs `Authorization: Bearer <token>` (else 401). */
  token?: string;
  /** Default: a free port. */
  port?: number;
}

export interface McpHttpServer {
  /** The MCP endpoint, http://127.0.0.1:<port>/mcp */
  url: string;
  port: number;
  /** Requests seen, as `METHOD status` or `METHOD rpc-method` (a test reads whether a call reached the server). */
  requests: string[];
  /** Stops listening; the sessions end with it, as when the server process dies. */
  close(): Promise<void>;
  /** Listens again on the same port with no sessions: a restarted server, as clients see it. */
  restart(): Promise<void>;
}

export interface DeskHttpOptions {
  stateFile: string;
  /** When set, every request needs `Authorization: Bearer <token>` (else 401). */
  token?: string;
  /** Default: a free port. */
  port?: number;
}

export interface DeskHttpServer extends McpHttpServer {
  store: DeskStore;
}

/** The desk (createDeskServer) over Streamable HTTP, its state in `stateFile`. */
export async function startDeskHttpServer(options: DeskHttpOptions): Promise<DeskHttpServer> {
  const store = new DeskStore(options.stateFile);
  const server = await startMcpHttpServer({
    create: (credential) => createDeskServer({ store, credential }),
    ...(options.token ? { token: options.token } : {}),
    ...(options.port ? { port: options.port } : {}),
  });
  store.update((state) => {
    state.pids.push(process.pid);
  });
  return { ...server, store };
}

/**
 * An MCP server over Streamable HTTP on 127.0.0.1, stateful like most deployed servers: a session id
 * per client, kept in memory, so a restart forgets every session and clients must initialize again.
 */
export async function startMcpHttpServer(options: McpHttpOptions): Promise<McpHttpServer> {
  const requests: string[] = [];
  let sessions = new Map<string, StreamableHTTPServerTransport>();
  let server: Server | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const answer = (status: number, message: string) => {
      requests.push(`${req.method} ${status}`);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
    };
    if (new URL(req.url ?? "/", "http://localhost").pathname !== "/mcp") return answer(404, "Not found");
    const credential = req.headers.authorization?.replace(/^Bearer\s+/i, "");
    if (options.token && credential !== options.token) return answer(401, "Unauthorized");

    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    const sessionId = req.headers["mcp-session-id"];
    let transport = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (!transport) {
      if (sessionId !== undefined) return answer(404, "Session not found");
      if (req.method !== "POST" || !isInitializeRequest(body))
        return answer(400, "No session: initialize first");
      const current = sessions;
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          current.set(id, created);
        },
      });
      created.onclose = () => {
        if (created.sessionId) current.delete(created.sessionId);
      };
      await options.create(credential).connect(created);
      transport = created;
    }
    requests.push(`${req.method} ${body?.method ?? ""}`.trim());
    await transport.handleRequest(req, res, body);
  };

  const listen = async (port: number) => {
    server = createServer((req, res) => {
      handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(error));
      });
    });
    await new Promise<void>((resolve, reject) => {
      server?.once("error", reject);
      server?.listen(port, "127.0.0.1", resolve);
    });
    return (server.address() as AddressInfo).port;
  };
  const stop = async () => {
    const closing = server;
    server = undefined;
    const ended = [...sessions.values()];
    sessions = new Map();
    await Promise.all(ended.map((transport) => transport.close().catch(() => undefined)));
    if (!closing) return;
    closing.closeAllConnections();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
  };

  const port = await listen(options.port ?? 0);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    requests,
    close: stop,
    restart: async () => {
      await stop();
      await listen(port);
    },
  };
}
