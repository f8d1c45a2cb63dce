import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";

export interface McpSseOptions {
  /** The server for one new connection, given the credential its client presented. */
  create: (credential: string | undefined) => McpServer;
  /** When set, every request needs `Authorization: Bearer <token>` (else 401). */
  token?: string;
}

export interface McpSseServer {
  /** The event-stream endpoint, http://127.0.0.1:<port>/sse (messages are posted to /messages). */
  url: string;
  port: number;
  /** Requests seen, as `GET /sse`, `POST <rpc-method>` or `<METHOD> <status>` when refused. */
  requests: string[];
  /** Event streams open now: one per client connection. */
  readonly openStreams: number;
  close(): Promise<void>;
  /** Listens again on the same port with no connections: a restarted server, as clients see it. */
  restart(): Promise<void>;
}

/**
 * An MCP server over the older HTTP+SSE transport (MCP 2024-11-05), as CAIPE's `transport: sse`
 * servers speak it, with the official SDK's SSEServerTransport: `GET /sse` opens a connection's event
 * stream, whose first event names where its messages are posted (`/messages?sessionId=…`).
 */
export async function startMcpSseServer(options: McpSseOptions): Promise<McpSseServer> {
  const requests: string[] = [];
  const connections = new Map<string, SSEServerTransport>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refuse = (status: number, message: string) => {
      requests.push(`${req.method} ${status}`);
      res.writeHead(status, { "content-type": "text/plain" }).end(message);
    };
    const url = new URL(req.url ?? "/", "http://localhost");
    const credential = req.headers.authorization?.replace(/^Bearer\s+/i, "");
    if (options.token && credential !== options.token) return refuse(401, "Unauthorized");
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      connections.set(transport.sessionId, transport);
      res.on("close", () => connections.delete(transport.sessionId));
      requests.push("GET /sse");
      await options.create(credential).connect(transport);
      return;
    }
    if (req.method === "POST" && url.pathname === "/messages") {
      const transport = connections.get(url.searchParams.get("sessionId") ?? "");
      if (!transport) return refuse(404, "No such session");
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      requests.push(`POST ${body?.method ?? "(answer)"}`);
      await transport.handlePostMessage(req, res, body);
      return;
    }
    refuse(404, "Not found");
  };

  let server: Server | undefined;
  const listen = async (port: number) => {
    const started = createServer((req, res) => {
      handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(error));
      });
    });
    server = started;
    await new Promise<void>((resolve, reject) => {
      started.once("error", reject);
      started.listen(port, "127.0.0.1", resolve);
    });
    return (started.address() as AddressInfo).port;
  };
  const stop = async () => {
    const closing = server;
    server = undefined;
    const ended = [...connections.values()];
    connections.clear();
    await Promise.all(ended.map((transport) => transport.close().catch(() => undefined)));
    if (!closing) return;
    closing.closeAllConnections();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  const port = await listen(0);
  return {
    url: `http://127.0.0.1:${port}/sse`,
    port,
    requests,
    get openStreams() {
      return connections.size;
    },
    close: stop,
    restart: async () => {
      await stop();
      await listen(port);
    },
  };
}
