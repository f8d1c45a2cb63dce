import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Server as McpServer } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { CAIPE_RAG_TOOLS, RAG_FETCH_DOCUMENT, RAG_LIST_DATASOURCES, RAG_SEARCH } from "@switchboard/contract";
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from "jose";
import { Knowledge, type RagDatasource, type RagDocument } from "./knowledge.js";

export interface RagServerOptions {
  datasources: RagDatasource[];
  documents: RagDocument[];
  /** Whose tokens it accepts (the test identity provider's). */
  idp: { jwksUrl: string; issuer: string; audience: string };
  /**
   * CAIPE's MCP_AUTH_ENABLED=true (its default): every /mcp request needs a valid token, the tool
   * listing included (401 otherwise). Default false: tools are listed to anyone.
   */
  requireToken?: boolean;
  /** Default: a free port. */
  port?: number;
}

/** One tool call as the server received it. */
export interface ReceivedCall {
  tool: string;
  args: Record<string, unknown>;
  /** The verified token's subject; undefined: no token came. */
  subject?: string;
  /** The bearer token exactly as it came (a test compares it with the user's own). */
  token?: string;
  /** The datasources the caller's token let this call read. */
  readable: string[];
}

export interface RagServer {
  /** The base URL, what RAG_SERVER_URL names: http://127.0.0.1:<port> (MCP at /mcp, health at /healthz). */
  url: string;
  port: number;
  calls: ReceivedCall[];
  /** Every request's `METHOD path` and its JSON-RPC method, in order. */
  requests: string[];
  close(): Promise<void>;
  /** Listens again on the same port (a restarted server: clients must initialize again). */
  restart(): Promise<void>;
}

interface Caller {
  claims?: JWTPayload;
  token?: string;
}

/**
 * A RAG server as CAIPE's answers its MCP clients: `GET /health`, `GET /healthz` (with its `config`),
 * and at `/mcp` (Streamable HTTP, each request on its own) CAIPE's three built-in tools with its input
 * schemas. A bearer token is verified on every request (a bad one is a 401, as CAIPE's middleware
 * answers); listing tools needs none unless `requireToken`, and a call without one reads nothing. Each call reads only the
 * datasources the token's groups may read (see Knowledge).
 */
export async function startRagServer(options: RagServerOptions): Promise<RagServer> {
  const knowledge = new Knowledge(options.datasources, options.documents);
  const jwks = createRemoteJWKSet(new URL(options.idp.jwksUrl));
  const calls: ReceivedCall[] = [];
  const requests: string[] = [];
  let server: Server | undefined;

  const verify = async (header: string | undefined): Promise<Caller | "refused"> => {
    if (!header) return {};
    const token = /^Bearer (.+)$/.exec(header)?.[1];
    if (!token) return "refused";
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: options.idp.issuer,
        audience: options.idp.audience,
      });
      return { claims: payload, token };
    } catch {
      return "refused";
    }
  };

  const toolServer = (caller: Caller) => {
    const server = new McpServer({ name: "RAG Tools", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: CAIPE_RAG_TOOLS }));
    server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      const groups = caller.claims ? ((caller.claims.groups as string[] | undefined) ?? []) : undefined;
      const readable = knowledge.readable(groups, args.filters);
      calls.push({
        tool: request.params.name,
        args,
        ...(caller.claims?.sub ? { subject: caller.claims.sub } : {}),
        ...(caller.token ? { token: caller.token } : {}),
        readable,
      });
      return answer(request.params.name, args, knowledge, readable);
    });
    return server;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && path === "/health") return json(200, { status: "ok" });
    if (req.method === "GET" && path === "/healthz") {
      requests.push("GET /healthz");
      return json(200, {
        status: "healthy",
        timestamp: Math.floor(Date.now() / 1000),
        details: {},
        config: { graph_rag_enabled: false },
      });
    }
    if (path !== "/mcp") return json(404, { detail: "Not Found" });
    const caller = await verify(req.headers.authorization);
    if (caller === "refused") {
      requests.push(`${req.method} /mcp 401`);
      return json(401, { error: "unauthorized", reason: "Invalid or expired token." });
    }
    if (options.requireToken && !caller.token) {
      requests.push(`${req.method} /mcp 401`);
      return json(401, { error: "unauthorized", reason: "Missing or malformed Authorization header." });
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    requests.push(`${req.method} /mcp ${body?.method ?? ""}`.trim());
    // Stateless: a new server and transport for each request, with that request's caller.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const mcp = toolServer(caller);
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
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
    if (!closing) return;
    closing.closeAllConnections();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
  };

  const port = await listen(options.port ?? 0);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    calls,
    requests,
    close: stop,
    restart: async () => {
      await stop();
      await listen(port);
    },
  };
}

/** A tool's answer, as CAIPE's tools shape theirs (a JSON text; a missing document is an "Error: …" text). */
function answer(
  tool: string,
  args: Record<string, unknown>,
  knowledge: Knowledge,
  readable: string[],
): CallToolResult {
  const text = (value: unknown) => ({
    content: [{ type: "text" as const, text: typeof value === "string" ? value : JSON.stringify(value) }],
  });
  if (tool === RAG_SEARCH) {
    if (typeof args.query !== "string") return { ...text("query must be a string"), isError: true };
    const limit = typeof args.limit === "number" ? args.limit : 10;
    const hits = knowledge.search(args.query, readable, limit);
    return text({ semantic_results: hits, keyword_results: hits });
  }
  if (tool === RAG_FETCH_DOCUMENT) {
    const id = String(args.document_id ?? "");
    const doc = knowledge.fetch(id, readable);
    if (!doc) return text(`Error: Document with ID '${id}' not found in the knowledge base.`);
    const { text: content, ...metadata } = doc;
    return text([{ page_content: content, metadata }]);
  }
  if (tool === RAG_LIST_DATASOURCES) return text({ datasources: readable, entity_types: [] });
  return { ...text(`Unknown tool: ${tool}`), isError: true };
}
