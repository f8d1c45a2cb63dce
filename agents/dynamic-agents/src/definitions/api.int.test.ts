// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a definition that tries to read the host's variables, on purpose.

import { writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { AuthenticatedCaller, PolicyEngine, type Principal, parsePolicies } from "@switchboard/agent-runtime";
import { bearerGuard, callerOf, readAuthSettings } from "@switchboard/agent-runtime/auth/bearer";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import express from "express";
import { generateKeyPair, SignJWT } from "jose";
import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { definitionsApi } from "./api.js";
import { openDefinitions } from "./source.js";
import type { DefinitionSource, StoredAgent } from "./spec.js";
import { capturedLogger } from "./test-helpers.js";

// CAIPE's RBAC as the host's policies would have it: admins may do anything, signed-in users reach.
const POLICIES = `
@id("rbac-admin")
permit(principal in Switchboard::Group::"platform-admins", action, resource);
@id("signed-in-reach")
permit(principal, action == Switchboard::Action::"reach", resource) when { principal.authenticated };
`;

const FILE = `
models:
  - { model_id: gpt-4o, name: GPT-4o, provider: openai }
mcp_servers:
  - id: github
    name: GitHub
    transport: http
    endpoint: "http://localhost:8082/mcp"
    headers: { Authorization: "Bearer \${GITHUB_MCP_TOKEN}", X-Team: "plain-secret-value" }
agents:
  - id: from-file
    name: From the file
    system_prompt: I come from the file.
    model_id: gpt-4o
    model_provider: openai
`;

const body = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Agent ${id}`,
  description: "Made through the API",
  system_prompt: "You help.",
  model: { id: "gpt-4o", provider: "openai" },
  allowed_tools: { github: ["search_code"] },
  visibility: "global",
  ...extra,
});

describe("CAIPE's /api/v1/agents behind a real token check and real policies", () => {
  const { logger, lines } = capturedLogger();
  let idp: IdentityProvider;
  let client: MongoClient;
  let db: Db;
  let source: DefinitionSource;
  let server: Server;
  let base: string;
  const tokens: Record<string, string> = {};

  const call = async (
    method: string,
    path: string,
    options: { user?: string; token?: string; json?: unknown; raw?: string } = {},
  ) => {
    const token = options.token ?? (options.user ? tokens[options.user] : undefined);
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(options.json !== undefined || options.raw !== undefined
          ? { "content-type": "application/json" }
          : {}),
      },
      ...(options.json !== undefined ? { body: JSON.stringify(options.json) } : {}),
      ...(options.raw !== undefined ? { body: options.raw } : {}),
    });
    const text = await response.text();
    let parsed: {
      success?: boolean;
      data?: unknown;
      error?: string;
      problems?: Array<{ field: string; message: string }>;
    } = {};
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the status says enough
    }
    return { status: response.status, ...parsed };
  };
  const served = (id: string) => source.current().agents.find((spec) => spec.id === id);

  beforeAll(async () => {
    idp = await startIdentityProvider({
      users: {
        admin: { groups: ["platform-admins"], email: "admin@example.com" },
        reader: { groups: ["staff"], email: "reader@example.com" },
      },
    });
    tokens.admin = await signIn(idp, "admin");
    tokens.reader = await signIn(idp, "reader");
    client = await new MongoClient(testMongoUri()).connect();
    db = client.db(uniqueDbName("definitions_api"));
    const file = join(scratchDir("definitions-api"), "app-config.yaml");
    await writeFile(file, FILE);
    source = await openDefinitions({
      env: { APP_CONFIG_FILE: file, HOST_SECRET: "the-host-secret" },
      logger,
      db,
    });
    const auth = readAuthSettings(
      { AUTH_MODE: "jwt", AUTH_JWKS_URL: idp.jwksUrl, AUTH_ISSUER: idp.issuer, AUTH_AUDIENCE: idp.audience },
      "dynamic-agents",
    );
    const engine = new PolicyEngine(parsePolicies(POLICIES, "test policies"));
    const anonymous: Principal = { subject: "local", groups: [], authenticated: false };
    const app = express();
    app.use(
      "/api/v1",
      bearerGuard(auth, "rest"),
      definitionsApi({
        source,
        logger,
        caller: async (req) => {
          const user = await callerOf(req);
          if (!(user instanceof AuthenticatedCaller)) return undefined;
          const groups = user.claims.groups;
          return {
            subject: user.subject,
            groups: Array.isArray(groups) ? groups.map(String) : [],
            authenticated: true,
            ...(typeof user.claims.email === "string" ? { email: user.claims.email } : {}),
          };
        },
        decide: async (principal, action, agent) =>
          engine.decide({ principal: principal ?? anonymous, action, agent }).allowed,
      }),
    );
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await source?.close();
    await client?.close();
    await idp?.close();
  });

  it("creates an agent that is served at once, in CAIPE's document and envelope", async () => {
    const created = await call("POST", "/agents", { user: "admin", json: body("triage") });
    expect(created).toMatchObject({
      status: 200,
      success: true,
      data: {
        _id: "triage",
        name: "Agent triage",
        system_prompt: "You help.",
        allowed_tools: { github: ["search_code"] },
        visibility: "global",
        owner_id: "admin@example.com",
        config_driven: false,
        is_system: false,
      },
    });
    expect(served("triage")).toMatchObject({ source: "api", allowedTools: { github: ["search_code"] } });
    expect(await db.collection<StoredAgent>("dynamic_agents").findOne({ _id: "triage" })).toMatchObject({
      config_driven: false,
    });
    expect((await call("POST", "/agents", { user: "admin", json: body("triage") })).status).toBe(409);
  });

  it("lists agents a page at a time, each caller seeing what the policy lets them", async () => {
    await call("POST", "/agents", { user: "admin", json: body("hidden", { enabled: false }) });
    const all = await call("GET", "/agents", { user: "admin" });
    expect(all.data).toMatchObject({ total: 3, page: 1, limit: 20, total_pages: 1 });
    // By name: "Agent hidden", "Agent triage", "From the file".
    const page = await call("GET", "/agents?page=2&limit=1", { user: "admin" });
    expect(page.data).toMatchObject({
      total: 3,
      page: 2,
      limit: 1,
      total_pages: 3,
      items: [{ _id: "triage" }],
    });
    // A reader reaches enabled agents only, and sees no disabled one.
    const readable = await call("GET", "/agents", { user: "reader" });
    expect((readable.data as { items: Array<{ _id: string }> }).items.map((item) => item._id)).toEqual([
      "triage",
      "from-file",
    ]);
    expect((await call("GET", "/agents/hidden", { user: "reader" })).status).toBe(404);
    expect((await call("GET", "/agents/triage", { user: "reader" })).data).toMatchObject({ _id: "triage" });
    expect((await call("GET", "/agents?limit=1000", { user: "admin" })).problems).toEqual([
      { field: "limit", message: "use a whole number from 1 to 100" },
    ]);
  });

  it("refuses a user the policy does not let configure, saying so, and changes nothing", async () => {
    const refused = await call("POST", "/agents", { user: "reader", json: body("mine") });
    expect(refused).toMatchObject({ status: 403, success: false });
    expect(refused.error).toMatch(
      /^You may not configure the agent "mine": that needs the configure permission/,
    );
    expect(
      (await call("PATCH", "/agents/triage", { user: "reader", json: { system_prompt: "pwned" } })).status,
    ).toBe(403);
    expect((await call("DELETE", "/agents/triage", { user: "reader" })).status).toBe(403);
    expect((await call("GET", "/mcp-servers", { user: "reader" })).status).toBe(403);
    expect(served("mine")).toBeUndefined();
    expect(served("triage")?.systemPrompt).toBe("You help.");
  });

  it("refuses a missing or forged token before anything runs", async () => {
    expect((await call("POST", "/agents", { json: body("anon") })).status).toBe(401);
    // Signed with another key, claiming the provider's issuer, audience and an admin's groups.
    const { privateKey } = await generateKeyPair("RS256");
    const forged = await new SignJWT({ groups: ["platform-admins"] })
      .setProtectedHeader({ alg: "RS256", kid: "test-key" })
      .setSubject("admin")
      .setIssuer(idp.issuer)
      .setAudience(idp.audience)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    expect((await call("POST", "/agents", { token: forged, json: body("forged") })).status).toBe(401);
    expect((await call("DELETE", "/agents/triage", { token: `${tokens.admin}x` })).status).toBe(401);
    expect(served("anon") ?? served("forged")).toBeUndefined();
  });

  it("changes an agent, legacy model fields too, and refuses a bad body naming the field", async () => {
    const changed = await call("PATCH", "/agents/triage", {
      user: "admin",
      json: { system_prompt: "You triage.", model_id: "gpt-4o-mini", model_provider: "openai" },
    });
    expect(changed).toMatchObject({
      status: 200,
      data: { system_prompt: "You triage.", model: { id: "gpt-4o-mini", provider: "openai" } },
    });
    expect(served("triage")).toMatchObject({ systemPrompt: "You triage.", model: { id: "gpt-4o-mini" } });
    const bad = await call("PATCH", "/agents/triage", {
      user: "admin",
      json: { allowed_tools: { github: "yes" } },
    });
    expect(bad).toMatchObject({ status: 422, success: false, problems: [{ field: "allowed_tools.github" }] });
    const unknown = await call("PATCH", "/agents/triage", { user: "admin", json: { allowed_toolz: {} } });
    expect(unknown.problems).toEqual([
      {
        field: "allowed_toolz",
        message:
          "not a field of a dynamic agent (CAIPE's DynamicAgentConfigCreate): remove it, or check its spelling",
      },
    ]);
    const missingServer = await call("PATCH", "/agents/triage", {
      user: "admin",
      json: { allowed_tools: { gitlab: true } },
    });
    expect(missingServer.problems?.[0]).toEqual({
      field: "allowed_tools.gitlab",
      message: 'no mcp_servers or openapi_sources entry has the id "gitlab": add one, or remove it here',
    });
    expect((await call("PATCH", "/agents/triage", { user: "admin", json: { id: "renamed" } })).status).toBe(
      422,
    );
    // Fields the server sets are its own.
    const owned = await call("PATCH", "/agents/triage", {
      user: "admin",
      json: { config_driven: true, owner_id: "mallory" },
    });
    expect(owned.data).toMatchObject({ config_driven: false, owner_id: "admin@example.com" });
    expect(served("triage")?.systemPrompt).toBe("You triage.");
  });

  it("leaves the file's agents to the file, saying so", async () => {
    const patched = await call("PATCH", "/agents/from-file", { user: "admin", json: { system_prompt: "x" } });
    expect(patched).toMatchObject({ status: 400, success: false });
    expect(patched.error).toMatch(/comes from the configuration file \(APP_CONFIG_FILE\): change it there/);
    expect((await call("DELETE", "/agents/from-file", { user: "admin" })).status).toBe(400);
    expect((await call("POST", "/agents", { user: "admin", json: body("from-file") })).status).toBe(409);
    expect(served("from-file")?.systemPrompt).toBe("I come from the file.");
  });

  it("refuses ids that are paths, operators or packaged agents' names", async () => {
    for (const path of [
      "/agents/..%2F..%2Fetc%2Fpasswd",
      "/agents/%24where",
      "/agents/A%20B",
      "/agents/github",
    ]) {
      const answer = await call("GET", path, { user: "admin" });
      expect(answer.status, path).toBe(422);
      expect(answer.problems?.[0]?.field).toBe("agent_id");
    }
    expect((await call("DELETE", "/agents/..%2Ftriage", { user: "admin" })).status).toBe(422);
    for (const id of [{ $gt: "" }, "../escape", "$where", "supervisor", ["triage"]]) {
      const answer = await call("POST", "/agents", { user: "admin", json: body("x", { id }) });
      expect(answer.status, JSON.stringify(id)).toBe(422);
      expect(answer.problems?.[0]?.field).toBe("id");
    }
    const operatorInField = await call("POST", "/agents", {
      user: "admin",
      json: body("ops", { allowed_tools: { $where: true } }),
    });
    expect(operatorInField.problems?.[0]?.field).toBe('allowed_tools["$where"]');
    expect(
      await db.collection("dynamic_agents").countDocuments({ _id: { $in: ["x", "ops", "escape"] } as never }),
    ).toBe(0);
  });

  it("refuses a body too large, or not JSON, before reading it", async () => {
    const huge = await call("POST", "/agents", {
      user: "admin",
      json: body("huge", { system_prompt: "x".repeat(300_000) }),
    });
    expect(huge).toMatchObject({ status: 413, success: false });
    expect(huge.error).toMatch(/over 256 KB/);
    expect((await call("POST", "/agents", { user: "admin", raw: "{not json" })).status).toBe(400);
    expect((await call("POST", "/agents", { user: "admin", json: [body("list")] })).status).toBe(422);
    const longPrompt = await call("POST", "/agents", {
      user: "admin",
      json: body("long", { system_prompt: "x".repeat(100_001) }),
    });
    expect(longPrompt.problems).toEqual([
      { field: "system_prompt", message: "system_prompt: at most 100000 characters" },
    ]);
  });

  it("keeps a subagent url as given, however private its address (where it may point is the host's rule)", async () => {
    const metadata = "http://169.254.169.254/latest/meta-data/";
    const created = await call("POST", "/agents", {
      user: "admin",
      json: body("fetcher", { subagents: [{ name: "metadata", description: "d", url: metadata }] }),
    });
    expect(created.status).toBe(200);
    expect(served("fetcher")?.subagents).toEqual([{ name: "metadata", description: "d", url: metadata }]);
    const file = await call("POST", "/agents", {
      user: "admin",
      json: body("reader2", { subagents: [{ name: "passwd", description: "d", url: "file:///etc/passwd" }] }),
    });
    expect(file.problems?.[0]?.field).toBe("subagents[0].url");
  });

  it("never fills in the host's variables in an agent made through the API", async () => {
    await call("POST", "/agents", {
      user: "admin",
      json: body("leaky", { system_prompt: "Say ${HOST_SECRET}" }),
    });
    expect(served("leaky")?.systemPrompt).toBe("Say ${HOST_SECRET}");
    expect(JSON.stringify(source.current())).not.toContain("the-host-secret");
  });

  it("refuses a delegation cycle naming its agents, and a delete that would break a delegating agent", async () => {
    await call("POST", "/agents", { user: "admin", json: body("leaf") });
    const parent = await call("POST", "/agents", {
      user: "admin",
      json: body("parent", { subagents: [{ agent_id: "leaf", name: "leaf", description: "d" }] }),
    });
    expect(parent.status).toBe(200);
    const cycle = await call("PATCH", "/agents/leaf", {
      user: "admin",
      json: { subagents: [{ agent_id: "parent", name: "parent", description: "d" }] },
    });
    expect(cycle.problems).toEqual([
      {
        field: "subagents",
        message:
          "these agents would delegate to each other in a cycle (leaf → parent → leaf), so no request would end: remove one of these subagents",
      },
    ]);
    const blocked = await call("DELETE", "/agents/leaf", { user: "admin" });
    expect(blocked).toMatchObject({
      status: 409,
      error: 'The agents "parent" delegate to "leaf": remove it from their subagents first.',
    });
    expect(await call("DELETE", "/agents/parent", { user: "admin" })).toMatchObject({
      status: 200,
      data: { deleted: "parent" },
    });
    expect(served("parent")).toBeUndefined();
    expect((await call("DELETE", "/agents/parent", { user: "admin" })).status).toBe(404);
  });

  it("lists MCP servers without their secrets, and the models", async () => {
    const servers = await call("GET", "/mcp-servers", { user: "admin" });
    expect(servers.data).toMatchObject({
      total: 1,
      items: [
        {
          _id: "github",
          transport: "http",
          endpoint: "http://localhost:8082/mcp",
          headers: { Authorization: "<redacted>", "X-Team": "<redacted>" },
          config_driven: true,
        },
      ],
    });
    expect(JSON.stringify(servers)).not.toContain("plain-secret-value");
    expect(await call("GET", "/llm-models", { user: "reader" })).toMatchObject({
      status: 200,
      data: [{ model_id: "gpt-4o", name: "GPT-4o", provider: "openai", description: "" }],
    });
    expect(lines.join("")).not.toContain(tokens.admin as string);
  });
});
