import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { promisify } from "node:util";
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
} from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { createLogger } from "@switchboard/common";
import { type Fleet, onlyAgents, startFleet } from "@switchboard/fleet";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { freePort } from "@switchboard-testing/test-agents";
import { type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import {
  callTool,
  recallUserMessages,
  replyFromToolResult,
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMcpServer, startMcpServer } from "../src/app.js";
import { readMcpServerSettings } from "../src/env.js";

const repoRoot = join(import.meta.dirname, "..", "..", "..");
const POLICIES = `
@id("everyone")
permit(principal, action in [Switchboard::Action::"reach", Switchboard::Action::"read",
  Switchboard::Action::"change"], resource);
`;

/** "<agent>: <request>" goes to that agent; the Jira agent lists issues and creates them (a change it asks to confirm). */
function script() {
  return rules(
    [
      { toolOffered: "call_agent", lastUser: /what did I ask/, reply: recallUserMessages() },
      ...routeByAgentPrefix(),
      {
        toolOffered: "call_agent",
        reply: say("Tell me which agent to ask, e.g. jira: open issues in PLAT."),
      },
      {
        lastUser: /open issues in ([A-Z]+)/,
        reply: (_r, { match }) => callTool("search_issues", { jql: `project = ${match?.[1]} ORDER BY key` }),
      },
      {
        lastUser: /create a bug in ([A-Z]+): (.+)/,
        reply: (_r, { match }) =>
          callTool("create_issue", { project: match?.[1], summary: match?.[2], issue_type: "Bug" }),
      },
      { afterTool: true, reply: replyFromToolResult() },
    ],
    say("ok"),
  );
}

/** The MCP inspector's own launcher, run as a developer runs it (`mcp-inspector --cli …`). */
const INSPECTOR = join(
  import.meta.dirname,
  "..",
  "node_modules",
  "@modelcontextprotocol",
  "inspector",
  "clients",
  "launcher",
  "build",
  "index.js",
);
const scratch = mkdtempSync(join(tmpdir(), "mcp-inspector-"));

/** One inspector CLI call: its exit code and what it printed. */
async function inspect(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [INSPECTOR, "--cli", ...args], {
      // Its catalog of servers goes to a scratch file, not the home directory.
      env: { PATH: process.env.PATH ?? "", HOME: scratch, MCP_CATALOG_PATH: join(scratch, "mcp.json") },
      timeout: 60_000,
    });
    return { code: 0, out: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, out: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

const text = (result: unknown) =>
  ((result as CallToolResult).content ?? [])
    .map((part) => (part.type === "text" ? part.text : ""))
    .join("\n");

describe("Switchboard as an MCP server: the official MCP client, the test identity provider, the real supervisor and Jira agent", () => {
  const storage = testMongoEnv(uniqueDbName("mcp-server"));
  let idp: IdentityProvider;
  let llm: ScriptedLlm;
  let jira: FakeJira;
  let fleet: Fleet;
  let mcp: RunningMcpServer;
  let webUrl: string;
  /** Users' tokens for this file's MCP server (its URL and the agents' audience). */
  let alice: string;
  let bob: string;
  /** The MCP endpoints tokens are issued for: this file's server, npm start's, one whose tokens name it alone. */
  const endpoints = { own: "", fleet: "", alone: "" };
  const ports = { own: 0, alone: 0 };
  /** Every line the MCP server and the fleet wrote. */
  const logged: string[] = [];
  const clients: Client[] = [];

  const serverEnv = (overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    PORT: String(ports.own),
    HOST: "127.0.0.1",
    CAIPE_URL: fleet.supervisor.url,
    CAIPE_UI_BASE_URL: webUrl,
    AUTH_MODE: "jwt",
    AUTH_JWKS_URL: idp.jwksUrl,
    AUTH_ISSUER: idp.issuer,
    AUTH_AUDIENCE: idp.audience,
    ...overrides,
  });
  const logger = createLogger({
    level: "debug",
    base: { agent: "mcp-server" },
    destination: new Writable({
      write(chunk, _encoding, done) {
        logged.push(String(chunk));
        done();
      },
    }),
  });

  /** An MCP client over Streamable HTTP with a user's own token, declaring elicitation when `answer` is given. */
  const connect = async (token: string, answer?: (message: string) => { approve: boolean } | "cancel") => {
    const client = new Client(
      { name: "test-editor", version: "1.0.0" },
      { capabilities: answer ? { elicitation: { form: {} } } : {} },
    );
    if (answer) {
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        const said = answer(request.params.message);
        return said === "cancel" ? { action: "cancel" } : { action: "accept", content: said };
      });
    }
    await client.connect(
      new StreamableHTTPClientTransport(new URL(mcp.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return client;
  };

  /** The stdio entry as an editor starts it, with `token` as SWITCHBOARD_TOKEN; its stderr (its log) is kept. */
  const stdioClient = async (token: string) => {
    const client = new Client({ name: "test-editor", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(import.meta.dirname, "..", "dist", "stdio.js")],
      env: {
        PATH: process.env.PATH ?? "",
        LOG_LEVEL: "debug",
        CAIPE_URL: fleet.supervisor.url,
        CAIPE_UI_BASE_URL: webUrl,
        SWITCHBOARD_TOKEN: token,
      },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk) => logged.push(String(chunk)));
    await client.connect(transport);
    clients.push(client);
    return client;
  };

  const initialize = (token?: string, url = mcp.url) =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "curl", version: "1" },
        },
      }),
    });

  beforeAll(async () => {
    const [webPort, fleetMcpPort] = await Promise.all([freePort(), freePort()]);
    [ports.own, ports.alone] = await Promise.all([freePort(), freePort()]);
    webUrl = `http://localhost:${webPort}`;
    endpoints.own = `http://localhost:${ports.own}/mcp`;
    endpoints.fleet = `http://localhost:${fleetMcpPort}/mcp`;
    endpoints.alone = `http://localhost:${ports.alone}/mcp`;
    idp = await startIdentityProvider({
      webOrigin: webUrl,
      users: { alice: { name: "Alice", email: "alice@example.com" }, bob: { name: "Bob" } },
      // An MCP client asks for a token for the MCP server it talks to (RFC 8707's resource).
      resources: {
        [endpoints.own]: "and-agents",
        [endpoints.fleet]: "and-agents",
        [endpoints.alone]: "alone",
      },
    });
    [llm, jira] = await Promise.all([
      startScriptedLlm({ script: script(), tokenIntervalMs: 5 }),
      startFakeJira(),
    ]);
    const policyFile = join(mkdtempSync(join(tmpdir(), "mcp-server-policies-")), "policies.cedar");
    writeFileSync(policyFile, POLICIES);
    fleet = await startFleet({
      root: repoRoot,
      // The MCP server as npm start runs it, beside the one this file starts with its own settings.
      mcpServer: true,
      onLine: (_agent, line) => logged.push(line),
      env: {
        PATH: process.env.PATH,
        LOG_LEVEL: "debug",
        ...storage,
        ...llm.env,
        ATLASSIAN_API_URL: jira.url,
        ATLASSIAN_EMAIL: jira.email,
        ATLASSIAN_TOKEN: jira.token,
        ...onlyAgents(repoRoot, ["jira"]),
        SUPERVISOR_PORT: String(await freePort()),
        JIRA_AGENT_PORT: String(await freePort()),
        MCP_SERVER_PORT: String(fleetMcpPort),
        WEB_PORT: String(webPort),
        AUTHZ_POLICY_FILE: policyFile,
        AUTH_MODE: "jwt",
        AUTH_JWKS_URL: idp.jwksUrl,
        AUTH_ISSUER: idp.issuer,
        AUTH_AUDIENCE: idp.audience,
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_SCOPE: idp.scope,
      },
    });
    // The web chat is only a link target here (approve there): whether its page is built does not matter.
    const failed = fleet.failed.filter((member) => member.name !== "web");
    if (failed.length > 0) throw new Error(`The fleet did not start: ${JSON.stringify(failed)}`);
    mcp = await startMcpServer(readMcpServerSettings(serverEnv()), logger);
    expect(mcp.url).toBe(endpoints.own);
    [alice, bob] = await Promise.all([
      signIn(idp, "alice", endpoints.own),
      signIn(idp, "bob", endpoints.own),
    ]);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await mcp?.stop();
    await fleet?.stop();
    await Promise.all([llm?.close(), jira?.close(), idp?.close()]);
  });

  it("answers a request without a token 401, pointing at its protected-resource metadata, which names the identity provider the agents trust", async () => {
    const refused = await initialize();
    expect(refused.status).toBe(401);
    const { resourceMetadataUrl } = extractWWWAuthenticateParams(refused);
    expect(resourceMetadataUrl?.href).toBe(
      new URL("/.well-known/oauth-protected-resource/mcp", mcp.url).href,
    );
    // As an MCP client finds where to sign in: the SDK's own discovery.
    const metadata = await discoverOAuthProtectedResourceMetadata(mcp.url, { resourceMetadataUrl });
    expect(metadata.resource).toBe(mcp.url);
    expect(metadata.authorization_servers).toEqual([idp.issuer]);
    const issuer = await discoverAuthorizationServerMetadata(idp.issuer);
    expect(issuer?.issuer).toBe(idp.issuer);
    expect(issuer?.authorization_endpoint).toBeDefined();
  });

  it("says it is ready once the supervisor answers", async () => {
    const ready = await fetch(new URL("/ready", mcp.url));
    expect(ready.status).toBe(200);
  });

  it("lists its tools and the agents the user may reach, as the user", async () => {
    const client = await connect(alice);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "ask_switchboard",
      "list_agents",
      "read_conversation",
    ]);
    const agents = await client.callTool({ name: "list_agents", arguments: {} });
    expect(agents.isError).toBeFalsy();
    expect(text(agents)).toMatch(/^- jira \(available\)/m);
  });

  it("asks Switchboard with progress notifications while it works, continues the conversation by its id, and reads it back", async () => {
    const client = await connect(alice);
    const progress: string[] = [];
    const first = await client.callTool(
      { name: "ask_switchboard", arguments: { message: "jira: open issues in PLAT" } },
      undefined,
      { onprogress: (update) => progress.push(update.message ?? "") },
    );
    expect(first.isError).toBeFalsy();
    const {
      conversation_id: conversationId,
      state,
      answer,
    } = first.structuredContent as Record<string, string>;
    expect(state).toBe("completed");
    expect(answer).toContain("PLAT-1");
    expect(progress.some((line) => line.startsWith("jira:"))).toBe(true);
    // The answer shows while it is written, before the result (which MCP sends once, whole).
    expect(progress.some((line) => line.includes("PLAT-1"))).toBe(true);

    const second = await client.callTool({
      name: "ask_switchboard",
      arguments: { message: "what did I ask before?", conversation_id: conversationId },
    });
    expect((second.structuredContent as Record<string, string>).conversation_id).toBe(conversationId);
    expect(text(second)).toContain("jira: open issues in PLAT");

    const read = await client.callTool({
      name: "read_conversation",
      arguments: { conversation_id: conversationId },
    });
    expect(read.isError).toBeFalsy();
    expect(text(read)).toContain("User: jira: open issues in PLAT");
    expect(text(read)).toContain("User: what did I ask before?");

    // Bob, with his own token, cannot read Alice's conversation by its id.
    const asBob = await connect(bob);
    const refused = await asBob.callTool({
      name: "read_conversation",
      arguments: { conversation_id: conversationId },
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain(`You have no conversation ${conversationId}`);
    expect(text(refused)).not.toContain("PLAT");
  });

  it("puts a change to the user as MCP elicitation, and the approval makes it once", async () => {
    const asked: string[] = [];
    const client = await connect(alice, (message) => {
      asked.push(message);
      return { approve: true };
    });
    const summary = "Login page times out";
    const result = await client.callTool({
      name: "ask_switchboard",
      arguments: { message: `jira: create a bug in PLAT: ${summary}` },
    });
    expect(result.isError).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("jira");
    expect(asked[0]).toContain(summary);
    expect((result.structuredContent as Record<string, string>).state).toBe("completed");
    expect(jira.issues.filter((issue) => issue.summary === summary)).toHaveLength(1);
  });

  it("declined through elicitation, the change is not made", async () => {
    const client = await connect(alice, () => ({ approve: false }));
    const summary = "Declined bug";
    const result = await client.callTool({
      name: "ask_switchboard",
      arguments: { message: `jira: create a bug in PLAT: ${summary}` },
    });
    expect(result.isError).toBeFalsy();
    expect(jira.issues.filter((issue) => issue.summary === summary)).toHaveLength(0);
  });

  it("a confirmation the user dismisses (cancel) waits, with the web chat's link, and changes nothing", async () => {
    const client = await connect(alice, () => "cancel");
    const summary = "Dismissed for now";
    const result = await client.callTool({
      name: "ask_switchboard",
      arguments: { message: `jira: create a bug in PLAT: ${summary}` },
    });
    const { conversation_id: conversationId, state } = result.structuredContent as Record<string, string>;
    expect(state).toBe("input-required");
    expect(text(result)).toContain(`${webUrl}/c/${conversationId}`);
    expect(jira.issues.filter((issue) => issue.summary === summary)).toHaveLength(0);
  });

  it("tells a client that cannot ask to approve in the web chat, with a link to the conversation, and changes nothing", async () => {
    const client = await connect(alice);
    const summary = "Needs the web chat";
    const result = await client.callTool({
      name: "ask_switchboard",
      arguments: { message: `jira: create a bug in PLAT: ${summary}` },
    });
    const {
      conversation_id: conversationId,
      state,
      approve_at,
    } = result.structuredContent as Record<string, string>;
    expect(state).toBe("input-required");
    expect(approve_at).toBe(`${webUrl}/c/${conversationId}`);
    expect(text(result)).toContain(`Approve or decline it in the web chat: ${webUrl}/c/${conversationId}`);
    expect(text(result)).toContain(summary);
    expect(jira.issues.filter((issue) => issue.summary === summary)).toHaveLength(0);

    // Bob, knowing the conversation id, answers "yes" in it: his message is his own conversation's.
    const asBob = await connect(bob);
    await asBob.callTool({
      name: "ask_switchboard",
      arguments: { message: "yes", conversation_id: conversationId },
    });
    expect(jira.issues.filter((issue) => issue.summary === summary)).toHaveLength(0);

    // Alice answers it in the same conversation (as she would in the web chat): the change is made once.
    const approved = await client.callTool({
      name: "ask_switchboard",
      arguments: { message: "yes", conversation_id: conversationId },
    });
    expect((approved.structuredContent as Record<string, string>).state).toBe("completed");
    expect(jira.issues.filter((issue) => issue.summary === summary)).toHaveLength(1);
  });

  it("gives another user who asks in someone's conversation id nothing of that conversation", async () => {
    const asAlice = await connect(alice);
    const secret = "jira: open issues in OPS";
    const first = await asAlice.callTool({ name: "ask_switchboard", arguments: { message: secret } });
    const { conversation_id: conversationId } = first.structuredContent as Record<string, string>;
    const asBob = await connect(bob);
    const recalled = await asBob.callTool({
      name: "ask_switchboard",
      arguments: { message: "what did I ask before?", conversation_id: conversationId },
    });
    expect(text(recalled)).not.toContain(secret);
  });

  it("refuses a forged token (signed by a key the identity provider never had) with 401 and the resource metadata", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const now = Math.floor(Date.now() / 1000);
    const forged = await new SignJWT({
      sub: "alice",
      iss: idp.issuer,
      aud: idp.audience,
      iat: now,
      exp: now + 300,
    })
      .setProtectedHeader({ alg: "RS256", kid: "test-key" })
      .sign(privateKey);
    const refused = await initialize(forged);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(refused.headers.get("www-authenticate")).toContain("resource_metadata=");
    await expect(connect(forged)).rejects.toThrow();
  });

  it("refuses a token dressed as a supervisor's hop token: it names no user here", async () => {
    const { privateKey } = await generateKeyPair("ES256");
    const now = Math.floor(Date.now() / 1000);
    const hop = await new SignJWT({ sub: "alice", act: { sub: "supervisor" }, iat: now, exp: now + 60 })
      .setProtectedHeader({ alg: "ES256", typ: "switchboard-hop+jwt" })
      .sign(privateKey);
    const refused = await initialize(hop);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain("hop token");
  });

  it("refuses a token the identity provider issued for another audience", async () => {
    // Alice's token names this MCP server, but agents that trust another audience would refuse it.
    const other = await startMcpServer(
      readMcpServerSettings(
        serverEnv({
          PORT: "0",
          MCP_SERVER_AUDIENCE: endpoints.own,
          AUTH_AUDIENCE: "urn:switchboard:another-app",
        }),
      ),
      logger,
    );
    try {
      const refused = await initialize(alice, other.url);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toContain(
        "not Switchboard's agents (urn:switchboard:another-app, AUTH_AUDIENCE)",
      );
    } finally {
      await other.stop();
    }
  });

  it("takes only tokens issued for itself, as the MCP authorization spec asks: the agents' own token is refused, naming MCP_SERVER_AUDIENCE", async () => {
    const forTheAgents = await signIn(idp, "alice");
    const refused = await initialize(forTheAgents);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain(
      `not issued for this MCP server: its audience (aud) does not name ${endpoints.own} (MCP_SERVER_AUDIENCE)`,
    );
    expect(refused.headers.get("www-authenticate")).toContain("resource_metadata=");
    await expect(connect(forTheAgents)).rejects.toThrow();

    // MCP_SERVER_AUDIENCE set to the agents' audience makes the two one resource (an identity
    // provider that cannot issue for the MCP server's URL): then the agents' token serves here.
    const shared = await startMcpServer(
      readMcpServerSettings(serverEnv({ PORT: "0", MCP_SERVER_AUDIENCE: idp.audience })),
      logger,
    );
    try {
      expect((await initialize(forTheAgents, shared.url)).status).toBe(200);
    } finally {
      await shared.stop();
    }
  });

  it("refuses a token issued for itself alone, naming AUTH_AUDIENCE: the supervisor would refuse it", async () => {
    const alone = await startMcpServer(
      readMcpServerSettings(serverEnv({ PORT: String(ports.alone) })),
      logger,
    );
    try {
      const forItAlone = await signIn(idp, "alice", endpoints.alone);
      const refused = await initialize(forItAlone, alone.url);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toContain(
        `have the identity provider add that audience to tokens for ${endpoints.alone}`,
      );
      // Alice's token for the other server is no token for this one.
      expect((await initialize(alice, alone.url)).status).toBe(401);
    } finally {
      await alone.stop();
    }
  });

  it("keeps a session its user's: another user's token in it finds no such session", async () => {
    const opened = await initialize(alice);
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get("mcp-session-id") ?? "";
    expect(sessionId).not.toBe("");
    await opened.body?.cancel();
    const hijack = await fetch(mcp.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${bob}`,
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(hijack.status).toBe(404);
  });

  it("serves the same tools over stdio, as the user whose token SWITCHBOARD_TOKEN holds", async () => {
    const client = await stdioClient(alice);
    expect(text(await client.callTool({ name: "list_agents", arguments: {} }))).toMatch(
      /^- jira \(available\)/m,
    );
    const answer = await client.callTool({
      name: "ask_switchboard",
      arguments: { message: "jira: open issues in OPS" },
    });
    expect((answer.structuredContent as Record<string, string>).answer).toContain("OPS-");
  });

  it("over stdio, a forged SWITCHBOARD_TOKEN gets the supervisor's refusal, and nothing", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const now = Math.floor(Date.now() / 1000);
    const forged = await new SignJWT({
      sub: "alice",
      iss: idp.issuer,
      aud: idp.audience,
      iat: now,
      exp: now + 300,
    })
      .setProtectedHeader({ alg: "RS256", kid: "test-key" })
      .sign(privateKey);
    const client = await stdioClient(forged);
    const agents = await client.callTool({ name: "list_agents", arguments: {} });
    expect(agents.isError).toBe(true);
    expect(text(agents)).toContain("Unauthorized");
    expect(text(agents)).not.toContain("jira");
    const asked = await client.callTool({
      name: "ask_switchboard",
      arguments: { message: "jira: open issues in OPS" },
    });
    expect(asked.isError).toBe(true);
    expect(text(asked)).not.toContain("OPS-");
    expect(text(asked)).not.toContain(forged);
  });

  it("runs in npm start's fleet, and the MCP inspector's CLI lists its tools and calls one there with the user's token", async () => {
    expect(fleet.mcpServer).toBeDefined();
    const url = `${fleet.mcpServer?.url}/mcp`;
    const auth = ["--header", `Authorization: Bearer ${await signIn(idp, "alice", endpoints.fleet)}`];

    const listed = await inspect([url, "--transport", "http", "--method", "tools/list", ...auth]);
    expect(listed.code, listed.out).toBe(0);
    for (const tool of ["ask_switchboard", "list_agents", "read_conversation"])
      expect(listed.out).toContain(tool);

    const agents = await inspect([
      url,
      "--transport",
      "http",
      "--method",
      "tools/call",
      "--tool-name",
      "list_agents",
      ...auth,
    ]);
    expect(agents.code, agents.out).toBe(0);
    expect(agents.out).toContain("jira (available)");

    // Without a token: refused, and nothing listed.
    const anonymous = await inspect([url, "--transport", "http", "--method", "tools/list"]);
    expect(anonymous.code).not.toBe(0);
    expect(anonymous.out).not.toContain("ask_switchboard");
  });

  it("writes no user's token to any log, its own or the fleet's", () => {
    expect(logged.length).toBeGreaterThan(0);
    for (const token of [alice, bob]) {
      const leaked = logged.filter(
        (line) => line.includes(token) || line.includes(token.split(".")[2] ?? token),
      );
      expect(leaked).toEqual([]);
    }
  });
});
