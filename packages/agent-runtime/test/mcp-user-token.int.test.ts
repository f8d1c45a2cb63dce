// biome-ignore-all lint/suspicious/noTemplateCurlyInString: MCP server lists refer to variables as ${VAR}, on purpose.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ClientFactory } from "@a2a-js/sdk/client";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { hopKeys, type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import type { ScriptedLlm } from "@switchboard-testing/test-llm";
import { storedText, testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthenticatedCaller } from "../src/auth/caller.js";
import { HopTokenIssuer } from "../src/auth/hop-token.js";
import { LOCAL_PRINCIPAL } from "../src/authz/principal.js";
import { McpServerConnection } from "../src/mcp/connection.js";
import { readMcpSettings } from "../src/mcp/settings.js";
import type { RunningAgent } from "../src/serve.js";
import { send, stateOf, statusText } from "./a2a.js";
import { CapturedLog, serveDeskAgent, startObedientLlm } from "./desk-agent.js";

const STATIC_TOKEN = `static-${randomUUID()}`;
const keys = hopKeys();

interface Seen {
  path: string;
  method: string;
  authorization: string;
}

/**
 * An MCP server (the official SDK, Streamable HTTP, stateless) that records the Authorization header
 * of every request and answers `whoami` from it: the subject of a bearer JWT, or "static".
 */
async function startWhoamiServer(): Promise<{ base: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
      const authorization = req.headers.authorization ?? "";
      seen.push({ path: req.url ?? "", method: `${req.method} ${body?.method ?? ""}`.trim(), authorization });
      const mcp = new McpServer({ name: "whoami", version: "1.0.0" });
      mcp.registerTool(
        "whoami",
        { description: "Who the server takes the caller for", annotations: { readOnlyHint: true } },
        (extra) => {
          const header = String(extra.requestInfo?.headers.authorization ?? "");
          const token = header.replace(/^Bearer\s+/i, "");
          const who =
            token === STATIC_TOKEN
              ? "static"
              : String(JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()).sub);
          return { content: [{ type: "text", text: `You are ${who}.` }] };
        },
      );
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on("close", () => void transport.close());
      await mcp.connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("MCP servers receive the user's own token (FORWARD_JWT_TO_MCP, forwardUserToken)", () => {
  const dbName = uniqueDbName("mcp_user_token");
  const log = new CapturedLog();
  let idp: IdentityProvider;
  let llm: ScriptedLlm;
  let mcp: Awaited<ReturnType<typeof startWhoamiServer>>;
  let agent: RunningAgent;
  let mongo: MongoClient;
  const tokens: Record<string, string> = {};
  const used: string[] = [];

  const ask = async (token: string, text: string) => {
    const client = await new ClientFactory().createFromUrl(agent.url);
    return send(client, text, randomUUID(), "", {
      serviceParameters: { Authorization: `Bearer ${token}` },
    });
  };
  const seenSince = (mark: number, path: string) => mcp.seen.slice(mark).filter((s) => s.path === path);

  beforeAll(async () => {
    idp = await startIdentityProvider({ users: { alice: { groups: [] }, bob: { groups: [] } } });
    tokens.alice = await signIn(idp, "alice");
    tokens.bob = await signIn(idp, "bob");
    used.push(tokens.alice, tokens.bob);
    llm = await startObedientLlm();
    mcp = await startWhoamiServer();
    mongo = await new MongoClient(testMongoUri()).connect();
    const headers = { Authorization: "Bearer ${WHOAMI_STATIC_TOKEN}" };
    agent = await serveDeskAgent(
      {
        ...llm.env,
        ...testMongoEnv(dbName),
        LANGGRAPH_CHECKPOINT_TYPE: "mongodb",
        AUTH_MODE: "jwt",
        AUTH_JWKS_URL: idp.jwksUrl,
        AUTH_ISSUER: idp.issuer,
        AUTH_AUDIENCE: idp.audience,
        FORWARD_JWT_TO_MCP: "true",
        AUTH_SUPERVISOR_PUBLIC_KEY: keys.AUTH_SUPERVISOR_PUBLIC_KEY,
        WHOAMI_STATIC_TOKEN: STATIC_TOKEN,
        DESK_MCP_SERVERS: JSON.stringify({
          ident: { url: `${mcp.base}/ident`, headers },
          plain: { url: `${mcp.base}/plain`, headers, forwardUserToken: false, prefixToolNames: true },
        }),
      },
      log,
    );
  });
  afterAll(async () => {
    await agent?.close();
    await mongo?.close();
    await mcp?.close();
    await llm?.close();
    await idp?.close();
  });

  it("lists the tools at start-up with the static header", () => {
    expect(mcp.seen.length).toBeGreaterThan(0);
    expect(mcp.seen.every((s) => s.authorization === `Bearer ${STATIC_TOKEN}`)).toBe(true);
  });

  it("sends each user's call with that user's own token, never the other's, at the same time", async () => {
    const mark = mcp.seen.length;
    const [alice, bob] = await Promise.all([
      ask(tokens.alice as string, "call whoami"),
      ask(tokens.bob as string, "call whoami"),
    ]);
    expect(stateOf(alice)).toBe("TASK_STATE_COMPLETED");
    expect(statusText(alice)).toContain("You are alice.");
    expect(statusText(alice)).not.toContain("bob");
    expect(statusText(bob)).toContain("You are bob.");
    expect(statusText(bob)).not.toContain("alice");

    const seen = seenSince(mark, "/ident");
    const calls = seen.filter((s) => s.method === "POST tools/call").map((s) => s.authorization);
    expect(calls.sort()).toEqual([`Bearer ${tokens.alice}`, `Bearer ${tokens.bob}`].sort());
    // Every request (initialize included) carried a user's token: the static header never went with them.
    for (const s of seen) {
      expect([`Bearer ${tokens.alice}`, `Bearer ${tokens.bob}`]).toContain(s.authorization);
    }
  });

  it("through the supervisor (a hop token, not the user's own), says which setting hands it the user's token; never falls back to the shared connection", async () => {
    const issuer = HopTokenIssuer.fromPem(keys.AUTH_HOP_SIGNING_KEY, "supervisor");
    const alice = new AuthenticatedCaller("alice", tokens.alice as string, { sub: "alice" });
    const hop = await issuer.sign(alice, "desk");
    const mark = mcp.seen.length;
    const task = await ask(hop, "call whoami");
    expect(statusText(task)).toContain("AUTH_FORWARD_USER_TOKEN_TO");
    expect(statusText(task)).not.toContain("You are static.");
    expect(seenSince(mark, "/ident").filter((s) => s.method === "POST tools/call")).toEqual([]);
  });

  it("uses a user's refreshed token on their open connection, without connecting again", async () => {
    const refreshed = await signIn(idp, "alice");
    used.push(refreshed);
    expect(refreshed).not.toBe(tokens.alice);
    const mark = mcp.seen.length;
    const task = await ask(refreshed, "call whoami");
    expect(statusText(task)).toContain("You are alice.");
    const seen = seenSince(mark, "/ident");
    expect(seen.map((s) => s.method)).not.toContain("POST initialize");
    expect(seen.filter((s) => s.method === "POST tools/call").map((s) => s.authorization)).toEqual([
      `Bearer ${refreshed}`,
    ]);
  });

  it("sends the static header to a server set not to forward the user's token", async () => {
    const mark = mcp.seen.length;
    const task = await ask(tokens.bob as string, "call plain__whoami");
    expect(statusText(task)).toContain("You are static.");
    const seen = seenSince(mark, "/plain");
    expect(seen.some((s) => s.method === "POST tools/call")).toBe(true);
    expect(seen.every((s) => s.authorization === `Bearer ${STATIC_TOKEN}`)).toBe(true);
  });

  it("closes a user's connection once idle, and all of them on close", async () => {
    const [settings] = readMcpSettings(
      {
        DESK_MCP_SERVERS: JSON.stringify({ ident: { url: `${mcp.base}/idle`, forwardUserToken: true } }),
      },
      "desk",
    ).servers;
    const connection = new McpServerConnection(settings as NonNullable<typeof settings>, {
      agent: "desk",
      logger: log.logger,
      timeoutMs: 5_000,
      // Long enough that a loaded machine never expires one user's connection before both are counted.
      userIdleMs: 3_000,
    });
    const asUser = (user: "alice" | "bob") =>
      connection
        .forCaller({
          token: tokens[user] as string,
          principal: { subject: user, groups: [], authenticated: true },
        })
        .callTool({ name: "whoami", arguments: {} });
    const [alice, bob] = await Promise.all([asUser("alice"), asUser("bob")]);
    expect(JSON.stringify(alice)).toContain("You are alice.");
    expect(JSON.stringify(bob)).toContain("You are bob.");
    expect(connection.userConnections).toBe(2);
    for (let waited = 0; connection.userConnections > 0 && waited < 15_000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(connection.userConnections).toBe(0);
    expect(JSON.stringify(await asUser("alice"))).toContain("You are alice.");
    expect(connection.userConnections).toBe(1);
    await connection.close();
    expect(connection.userConnections).toBe(0);
  });

  it("uses the shared connection and its static header for a call with no user token (AUTH_MODE=none)", async () => {
    const [settings] = readMcpSettings(
      {
        WHOAMI_STATIC_TOKEN: STATIC_TOKEN,
        DESK_MCP_SERVERS: JSON.stringify({
          ident: {
            url: `${mcp.base}/anonymous`,
            headers: { Authorization: "Bearer ${WHOAMI_STATIC_TOKEN}" },
            forwardUserToken: true,
          },
        }),
      },
      "desk",
    ).servers;
    const connection = new McpServerConnection(settings as NonNullable<typeof settings>, {
      agent: "desk",
      logger: log.logger,
      timeoutMs: 5_000,
    });
    const result = await connection
      .forCaller({ principal: LOCAL_PRINCIPAL })
      .callTool({ name: "whoami", arguments: {} });
    expect(JSON.stringify(result)).toContain("You are static.");
    expect(connection.userConnections).toBe(0);
    await connection.close();
  });

  it("keeps no token in MongoDB or in the log", async () => {
    const stored = await storedText(mongo.db(dbName));
    expect(stored).toContain("You are alice.");
    for (const token of [...used, STATIC_TOKEN]) {
      expect(stored).not.toContain(token);
      expect(log.output).not.toContain(token);
    }
  });
});

describe("which MCP servers receive the user's token", () => {
  const stdio = { command: "node", args: ["server.js"] };
  const http = { url: "http://127.0.0.1:1/mcp" };
  const forwarded = (env: Record<string, string>) =>
    readMcpSettings(env, "desk").servers.map((server) => [server.name, server.forwardUserToken]);

  it("refuses to start with a stdio server set to receive it, saying why", async () => {
    const start = serveDeskAgent({
      DESK_MCP_SERVERS: JSON.stringify({ local: { ...stdio, forwardUserToken: true } }),
    });
    await expect(start).rejects.toThrow(
      /server "local" forwardUserToken: a stdio server cannot be given the user's token/,
    );
  });

  it("FORWARD_JWT_TO_MCP sets HTTP servers (not stdio ones), and a server's own flag wins", () => {
    const servers = JSON.stringify({
      a: http,
      b: { ...http, forwardUserToken: false },
      c: { ...http, forwardUserToken: true },
      d: stdio,
    });
    expect(forwarded({ DESK_MCP_SERVERS: servers, FORWARD_JWT_TO_MCP: "true" })).toEqual([
      ["a", true],
      ["b", false],
      ["c", true],
      ["d", false],
    ]);
    expect(forwarded({ DESK_MCP_SERVERS: servers })).toEqual([
      ["a", false],
      ["b", false],
      ["c", true],
      ["d", false],
    ]);
    expect(() => forwarded({ DESK_MCP_SERVERS: servers, FORWARD_JWT_TO_MCP: "yes please" })).toThrow(
      /FORWARD_JWT_TO_MCP is "yes please": set it to true/,
    );
  });
});
