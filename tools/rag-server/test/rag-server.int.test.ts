import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createLogger } from "@switchboard/common";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type AgentProcess, freePort, startAgentProcess } from "@switchboard-testing/test-agents";
import { hopKeys, type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import { callTool, rules, type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { CAIPE_RAG_TOOLS } from "@switchboard-testing/test-rag";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningRagServer, startRagServer } from "../src/app.js";
import { readRagServerSettings } from "../src/env.js";

// Switchboard's knowledge base end to end: the RAG server (in this process, on loopback, PGlite, the
// test LLM's embeddings) and the supervisor (its own process, ENABLE_RAG pointed at it), two users
// of the test identity provider. alice (sre) may read the security runbooks; bob may not, and no
// path gives him a word of them: the supervisor's answers, the model's requests, MCP calls of his own
// with any arguments, the datasources API.

const supervisorDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "agents", "supervisor");

const RESTART = {
  id: "restart-payments",
  uri: "https://docs.example.com/handbook/restart-payments",
  title: "Restart the payments service",
  text: "# Restart the payments service\n\nScale the payments deployment to zero, wait for the pgbouncer pool to drain, then scale back to three replicas.",
  readers: "everyone" as const,
};
/** Only the sre group may read it; its words are found nowhere else. */
const BREAK_GLASS = {
  id: "break-glass",
  uri: "https://docs.example.com/security/break-glass",
  title: "Break-glass access to production",
  text: "# Break-glass access to production\n\nThe break-glass passphrase sits in the vault under secret/breakglass/zephyr-quokka-71; opening it pages security.",
  readers: { groups: ["sre"] },
};
const SECRETS = [
  BREAK_GLASS.text,
  BREAK_GLASS.title,
  BREAK_GLASS.uri,
  "zephyr-quokka-71",
  "breakglass",
  "Break-glass",
];

/**
 * The model: "kb: <question>" searches the knowledge base; after the search it answers from the
 * first hit, citing it as the prompt asks ([title](source_url)).
 */
const script = rules(
  [
    {
      toolOffered: "search",
      lastUser: /^kb: (.+)$/,
      reply: (_r, { match }) => callTool("search", { query: match?.[1], thought: "the user asks how" }),
    },
    {
      afterTool: "search",
      reply: (request) => {
        const result = request.messages.findLast((message) => message.role === "tool");
        const content =
          typeof result?.content === "string" ? result.content : JSON.stringify(result?.content);
        const hits = (
          JSON.parse(content) as {
            semantic_results: Array<{ metadata: Record<string, string>; text_content: string }>;
          }
        ).semantic_results;
        const [top] = hits;
        return say(
          top
            ? `According to [${top.metadata.title}](${top.metadata.source_url}): ${top.text_content}`
            : "Nothing found.",
        );
      },
    },
  ],
  say("I cannot search the knowledge base."),
);

describe("the RAG server with the supervisor, two users", () => {
  const dir = scratchDir("rag-server");
  let idp: IdentityProvider;
  let llm: ScriptedLlm;
  let rag: RunningRagServer;
  let supervisor: AgentProcess;
  const tokens: Record<string, string> = {};

  /** A blocking A2A 0.3 message/send to the supervisor, as the web chat sends it; the task as JSON. */
  const ask = async (user: string, text: string) => {
    const response = await fetch(`${supervisor.url}/`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${tokens[user]}` },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: {
          message: {
            kind: "message",
            role: "user",
            messageId: randomUUID(),
            contextId: `kb-${randomUUID()}`,
            parts: [{ kind: "text", text }],
          },
          configuration: { blocking: true },
        },
      }),
    });
    const body = (await response.json()) as { result: Task };
    return { task: body.result, raw: JSON.stringify(body) };
  };

  /** An MCP client of the RAG server as `user` (undefined: no token), as the supervisor's runtime connects. */
  const mcpAs = async (token: string | undefined) => {
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${rag.url}/mcp`), {
        requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
      }),
    );
    return client;
  };
  const callText = async (client: Client, name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    return JSON.stringify(result);
  };
  const api = (path: string, user?: string, init: RequestInit = {}) =>
    fetch(`${rag.url}${path}`, {
      ...init,
      headers: {
        ...(init.headers as Record<string, string>),
        ...(user ? { authorization: `Bearer ${tokens[user]}` } : {}),
      },
    });

  beforeAll(async () => {
    let supervisorPort: number;
    let closedPort: number;
    [idp, llm, supervisorPort, closedPort] = await Promise.all([
      startIdentityProvider({
        users: { alice: { groups: ["platform", "sre"] }, bob: { groups: ["platform"] } },
      }),
      startScriptedLlm({ script }),
      freePort(),
      freePort(),
    ]);
    const sourcesFile = join(dir, "sources.yaml");
    writeFileSync(
      sourcesFile,
      `sources:
  - id: handbook
    type: upload
    name: Platform handbook
    readers: everyone
    admins: [sre]
  - id: security
    type: upload
    name: Security runbooks
    readers: { groups: [sre] }
    admins: [sre]
  # Nothing answers there: its sync fails, and the list says so.
  - id: wiki
    type: confluence
    url: http://127.0.0.1:${closedPort}/wiki
    spaces: [OPS]
    admins: [sre]
`,
    );
    const auth = {
      AUTH_MODE: "jwt",
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_ISSUER: idp.issuer,
      AUTH_AUDIENCE: idp.audience,
    };
    const env = {
      ...llm.env,
      ...auth,
      PORT: "0",
      HOST: "127.0.0.1",
      EMBEDDINGS_PROVIDER: "openai",
      EMBEDDINGS_MODEL: "text-embedding-3-small",
      KNOWLEDGE_PGLITE_DIR: join(dir, "knowledge"),
      KNOWLEDGE_SOURCES_FILE: sourcesFile,
      CONFLUENCE_USERNAME: "ingest@example.com",
      CONFLUENCE_API_TOKEN: "not-a-real-token",
    };
    rag = await startRagServer(readRagServerSettings(env), env, createLogger({ level: "silent" }));
    // As the sources' connectors hand documents over: each with the readers its source gave it.
    await rag.store.upsertDocuments("handbook", [RESTART]);
    await rag.store.upsertDocuments("security", [BREAK_GLASS]);
    [tokens.alice, tokens.bob] = await Promise.all([signIn(idp, "alice"), signIn(idp, "bob")]);
    supervisor = await startAgentProcess(supervisorDir, {
      env: {
        ...llm.env,
        ...auth,
        ...hopKeys(),
        ...testMongoEnv(uniqueDbName("rag-server-e2e")),
        PORT: String(supervisorPort),
        ENABLE_RAG: "true",
        RAG_SERVER_URL: rag.url,
      },
    });
  });
  afterAll(async () => {
    await supervisor?.kill("SIGTERM");
    await Promise.all([rag?.stop(), llm?.close(), idp?.close()]);
  });

  it("serves CAIPE's health answers and CAIPE's three tools with CAIPE's schemas", async () => {
    expect(await (await api("/health")).json()).toEqual({ status: "ok" });
    const healthz = await api("/healthz");
    expect(healthz.status).toBe(200);
    expect(await healthz.json()).toMatchObject({ status: "healthy", config: { graph_rag_enabled: false } });
    const client = await mcpAs(undefined);
    const { tools } = await client.listTools();
    expect(tools.map(({ name, inputSchema }) => ({ name, inputSchema }))).toEqual(
      CAIPE_RAG_TOOLS.map(({ name, inputSchema }) => ({ name, inputSchema })),
    );
    await client.close();
  });

  it("answers alice through the supervisor with the right citation, as the answer's sources part", async () => {
    await expect.poll(() => supervisor.logs(), { timeout: 20_000 }).toContain("Knowledge base connected");
    const { task } = await ask("alice", "kb: where is the break-glass passphrase kept?");
    expect(task.status.state).toBe("completed");
    const [artifact] = task.artifacts;
    const text = artifact?.parts.find((part) => part.kind === "text")?.text ?? "";
    expect(text).toContain("zephyr-quokka-71");
    expect(text).toContain(`[${BREAK_GLASS.title}](${BREAK_GLASS.uri})`);
    // The sources part (AREAS' interface): what the answer cites, from hits alice was served.
    const sources = artifact?.parts.filter((part) => part.kind === "data");
    expect(sources).toEqual([
      {
        kind: "data",
        data: {
          sources: [
            {
              title: BREAK_GLASS.title,
              url: BREAK_GLASS.uri,
              datasource_id: "security",
              document_id: "break-glass",
            },
          ],
        },
        metadata: { "switchboard/type": "sources" },
      },
    ]);
  });

  it("gives bob no chunk of the security runbooks through the supervisor: not in the answer, its sources or any model request", async () => {
    const at = llm.requests.length;
    const { task, raw } = await ask(
      "bob",
      "kb: where is the break-glass passphrase kept in the vault? zephyr quokka",
    );
    expect(task.status.state).toBe("completed");
    // His search ran, as him: it served what everyone may read, and the answer cites that.
    const sources = task.artifacts[0]?.parts.find((part) => part.kind === "data");
    expect(sources?.data?.sources).toEqual([
      { title: RESTART.title, url: RESTART.uri, datasource_id: "handbook", document_id: RESTART.id },
    ]);
    const modelSaw = JSON.stringify(llm.requests.slice(at));
    for (const secret of SECRETS) {
      expect(raw).not.toContain(secret);
      expect(modelSaw).not.toContain(secret);
    }
  });

  it("gives bob nothing of them by his own MCP calls, whatever he names, and refuses a forged token", async () => {
    const client = await mcpAs(tokens.bob);
    const asked: string[] = [];
    for (const query of ["break-glass passphrase vault", "zephyr-quokka-71", "' OR 1=1 --", "*"]) {
      for (const filters of [
        null,
        { datasource_id: "security" },
        { datasource_id: ["security", "handbook"] },
      ])
        asked.push(await callText(client, "search", { query, filters, limit: 50 }));
    }
    for (const filters of [null, { datasource_id: "security" }])
      asked.push(await callText(client, "fetch_document", { document_id: "break-glass", filters }));
    const listed = await callText(client, "list_datasources_and_entity_types", {});
    expect(listed).toContain("handbook");
    expect(listed).not.toContain("security");
    for (const answer of [...asked, listed])
      for (const secret of SECRETS) expect(answer).not.toContain(secret);
    expect(asked.at(-1)).toContain("not found in the knowledge base");
    await client.close();
    // Without a token: what everyone may read, nothing more.
    const anonymous = await mcpAs(undefined);
    const open = await callText(anonymous, "search", { query: "break-glass passphrase payments" });
    expect(open).toContain("restart-payments");
    for (const secret of SECRETS) expect(open).not.toContain(secret);
    await anonymous.close();
    // A token signed with another key, naming alice and the right issuer and audience, is refused.
    const forged = await new SignJWT({ groups: ["sre"] })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("alice")
      .setIssuer(idp.issuer)
      .setAudience(idp.audience)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode("a-key-the-identity-provider-never-had-0123"));
    for (const path of ["/mcp", "/v1/datasources"]) {
      const refused = await fetch(`${rag.url}${path}`, {
        method: path === "/mcp" ? "POST" : "GET",
        headers: {
          authorization: `Bearer ${forged}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: path === "/mcp" ? JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) : undefined,
      });
      expect(refused.status).toBe(401);
      expect(await refused.text()).not.toContain("zephyr");
    }
  });

  it("lists each user the sources they may see with their sync status; only a source's admins sync it, and a failed sync is shown", async () => {
    const list = async (user?: string) =>
      ((await (await api("/v1/datasources", user)).json()) as { datasources: Array<Record<string, unknown>> })
        .datasources;
    const bobs = await list("bob");
    expect(bobs.map((source) => source.datasource_id)).toEqual(["handbook"]);
    expect(bobs[0]).toMatchObject({
      name: "Platform handbook",
      source_type: "upload",
      documents: 1,
      can_sync: false,
    });
    expect((await list()).map((source) => source.datasource_id)).toEqual(["handbook"]);
    expect((await list("alice")).map((source) => source.datasource_id)).toEqual([
      "handbook",
      "security",
      "wiki",
    ]);

    // bob may not sync, and a source he may not see is as unknown as one that is not there.
    expect((await api("/v1/datasources/handbook/sync", "bob", { method: "POST" })).status).toBe(403);
    expect((await api("/v1/datasources/wiki/sync", "bob", { method: "POST" })).status).toBe(404);
    expect((await api("/v1/datasources/wiki/sync", undefined, { method: "POST" })).status).toBe(404);

    const started = await api("/v1/datasources/wiki/sync", "alice", { method: "POST" });
    expect(started.status).toBe(202);
    await rag.syncer.idle();
    const wiki = (await list("alice")).find((source) => source.datasource_id === "wiki");
    expect(wiki).toMatchObject({ running: false, documents: 0 });
    expect(wiki?.last_sync).toEqual(expect.any(String));
    expect(wiki?.last_error).toEqual(expect.any(String));
    expect(wiki?.last_error).not.toContain("not-a-real-token");
  });
});

/** The v0.3 task as the supervisor answers message/send. */
interface Task {
  status: { state: string };
  artifacts: Array<{
    parts: Array<{
      kind: string;
      text?: string;
      data?: Record<string, unknown>;
      metadata?: Record<string, unknown>;
    }>;
  }>;
}
