import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createLogger } from "@switchboard/common";
import { CAIPE_RAG_TOOLS } from "@switchboard/contract";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type FakeConfluence, startFakeConfluence } from "@switchboard-testing/fake-vendors";
import { type AgentProcess, freePort, startAgentProcess } from "@switchboard-testing/test-agents";
import { hopKeys, type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import { callTool, rules, type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningRagServer, startRagServer } from "../src/app.js";
import { readRagServerSettings } from "../src/env.js";

// Switchboard's knowledge base end to end: the RAG server (in this process, on loopback, PGlite, the
// test LLM's embeddings) syncing a fake Confluence through its own API, and the supervisor (its own
// process, ENABLE_RAG pointed at it), two users of the test identity provider. The OPS space is read
// by the sre group (Confluence's own space permission): alice may read it, bob may not, and no path
// gives him a word of it: the supervisor's answers, the model's requests, MCP calls of his own with
// any arguments, the datasources API. ENG is open to anyone.

const supervisorDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "agents", "supervisor");

/** In ENG, which anyone may read. */
const RESTART = {
  id: "77002",
  title: "Restart the payments service",
  body: "<h1>Restart the payments service</h1><p>Scale the payments deployment to zero, wait for the pgbouncer pool to drain, then scale back to three replicas.</p>",
};
/** In OPS, which only the sre group may read; its words are found nowhere else. */
const BREAK_GLASS = {
  id: "77001",
  title: "Break-glass access to production",
  body: "<h1>Break-glass access to production</h1><p>The break-glass passphrase sits in the vault under secret/breakglass/zephyr-quokka-71; opening it pages security.</p>",
};
/** What bob must never see: the restricted page's words, and the OPS space's seeded pages'. */
const SECRETS = [
  BREAK_GLASS.title,
  "zephyr-quokka-71",
  "breakglass",
  "Break-glass",
  "Checkout API runbook",
  "acknowledges pages",
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
  let wiki: FakeConfluence;
  let rag: RunningRagServer;
  /** The OPS pages' document ids (`<space>/<page id>`, as the connector keys them): none may reach bob, even as an id. */
  const opsIds: string[] = [];
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
  /** A page's link as the store keeps it (read as the sre group, which may read every page). */
  const uriOf = async (documentId: string) => {
    const sre = { subject: "test", groups: ["sre"], authenticated: true };
    const [document] = await rag.store.fetchDocument({ documentId, principal: sre });
    if (!document) throw new Error(`no document ${documentId}`);
    return document.uri;
  };
  /** Whether a text names an OPS page as a hit or a document. */
  const namesOpsPage = (text: string) =>
    opsIds.some((id) => text.includes(`document_id\\":\\"${id}`) || text.includes(`"document_id":"${id}"`));
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
    [idp, llm, wiki, supervisorPort, closedPort] = await Promise.all([
      startIdentityProvider({
        users: { alice: { groups: ["platform", "sre"] }, bob: { groups: ["platform"] } },
      }),
      startScriptedLlm({ script }),
      startFakeConfluence(),
      freePort(),
      freePort(),
    ]);
    const space = (key: string) => wiki.state.spaces.find((one) => one.key === key);
    const [ops, eng] = [space("OPS"), space("ENG")];
    if (!ops || !eng) throw new Error("the fake Confluence's seed changed");
    ops.permissions = { groups: ["sre"] };
    eng.permissions = { anonymous: true };
    const page = (spaceKey: string, { id, title, body }: typeof RESTART) => ({
      id,
      title,
      spaceKey,
      body,
      version: 1,
      updatedAt: new Date().toISOString(),
      updatedBy: "Alice Oncall",
    });
    wiki.state.pages.push(page("OPS", BREAK_GLASS), page("ENG", RESTART));
    opsIds.push(...wiki.state.pages.filter((one) => one.spaceKey === "OPS").map((one) => `OPS/${one.id}`));
    const sourcesFile = join(dir, "sources.yaml");
    writeFileSync(
      sourcesFile,
      `sources:
  - id: wiki
    type: confluence
    name: Team wiki
    url: ${wiki.url}/wiki
    spaces: [OPS, ENG]
    admins: [sre]
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
  - id: broken
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
      CONFLUENCE_USERNAME: wiki.email,
      CONFLUENCE_API_TOKEN: wiki.token,
      MAX_LOCAL_FILE_UPLOAD_BYTES: String(64 * 1024),
    };
    rag = await startRagServer(readRagServerSettings(env), env, createLogger({ level: "silent" }));
    [tokens.alice, tokens.bob] = await Promise.all([signIn(idp, "alice"), signIn(idp, "bob")]);
    // alice, an admin of the wiki source, syncs it through the API; its readers come from Confluence.
    expect((await api("/v1/datasources/wiki/sync", "alice", { method: "POST" })).status).toBe(202);
    await rag.syncer.idle();
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
    await Promise.all([rag?.stop(), llm?.close(), idp?.close(), wiki?.close()]);
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
    const { task, raw } = await ask("alice", "kb: where is the break-glass passphrase kept?");
    expect(task.status.state).toBe("completed");
    // The check bob's tests rely on sees an OPS page where there is one.
    expect(namesOpsPage(raw)).toBe(true);
    const [artifact] = task.artifacts;
    const text = artifact?.parts.find((part) => part.kind === "text")?.text ?? "";
    const url = await uriOf(`OPS/${BREAK_GLASS.id}`);
    expect(url).toMatch(/^https?:\/\/.+77001/);
    expect(text).toContain("zephyr-quokka-71");
    expect(text).toContain(`[${BREAK_GLASS.title}](${url})`);
    // The sources part (AREAS' interface): what the answer cites, from hits alice was served.
    const sources = artifact?.parts.filter((part) => part.kind === "data");
    expect(sources).toEqual([
      {
        kind: "data",
        data: {
          sources: [
            { title: BREAK_GLASS.title, url, datasource_id: "wiki", document_id: `OPS/${BREAK_GLASS.id}` },
          ],
        },
        metadata: { "switchboard/type": "sources" },
      },
    ]);
  });

  it("gives bob no chunk of the OPS space through the supervisor: not in the answer, its sources or any model request", async () => {
    const at = llm.requests.length;
    const { task, raw } = await ask(
      "bob",
      "kb: where is the break-glass passphrase kept in the vault? zephyr quokka",
    );
    expect(task.status.state).toBe("completed");
    // His search ran, as him: it served ENG's pages, which anyone may read, and the answer cites one.
    const sources = task.artifacts[0]?.parts.find((part) => part.kind === "data")?.data?.sources as
      | Array<{ datasource_id: string; document_id: string }>
      | undefined;
    expect(sources?.length).toBeGreaterThan(0);
    for (const source of sources ?? []) {
      expect(source.datasource_id).toBe("wiki");
      expect(opsIds).not.toContain(source.document_id);
    }
    const modelSaw = JSON.stringify(llm.requests.slice(at));
    for (const secret of SECRETS) {
      expect(raw).not.toContain(secret);
      expect(modelSaw).not.toContain(secret);
    }
    expect(namesOpsPage(raw) || namesOpsPage(modelSaw)).toBe(false);
  });

  it("gives bob nothing of it by his own MCP calls, whatever he names, and refuses a forged token", async () => {
    const client = await mcpAs(tokens.bob);
    const asked: string[] = [];
    for (const query of [
      "break-glass passphrase vault",
      "zephyr-quokka-71",
      "checkout runbook on-call",
      "' OR 1=1 --",
      "*",
    ]) {
      for (const filters of [
        null,
        { datasource_id: "wiki" },
        { datasource_id: ["security", "wiki", "broken"] },
      ])
        asked.push(await callText(client, "search", { query, filters, limit: 50 }));
    }
    for (const id of opsIds)
      for (const filters of [null, { datasource_id: "wiki" }])
        asked.push(await callText(client, "fetch_document", { document_id: id, filters }));
    const listed = await callText(client, "list_datasources_and_entity_types", {});
    expect(listed).toContain("wiki");
    expect(listed).not.toContain("security");
    for (const answer of [...asked, listed]) {
      for (const secret of SECRETS) expect(answer).not.toContain(secret);
      expect(namesOpsPage(answer)).toBe(false);
    }
    expect(asked.at(-1)).toContain("not found in the knowledge base");
    // Bad arguments are refused with the fix, not answered with anything.
    const tooLong = await client.callTool({
      name: "search",
      arguments: { query: "break-glass ".repeat(500) },
    });
    expect(tooLong.isError).toBe(true);
    expect(JSON.stringify(tooLong)).toMatch(/at most 4000 characters/);
    const badFilter = await client.callTool({
      name: "search",
      arguments: { query: "x", filters: { datasource_id: 7 } },
    });
    expect(badFilter.isError).toBe(true);
    expect(JSON.stringify(badFilter)).toMatch(/datasource_id must be/);
    // What he may read he gets: a search of ENG's words finds its page.
    expect(await callText(client, "search", { query: "restart payments pgbouncer" })).toContain(
      RESTART.title,
    );
    await client.close();
    // Without a token: what everyone may read, nothing more.
    const anonymous = await mcpAs(undefined);
    const open = await callText(anonymous, "search", { query: "break-glass passphrase payments" });
    expect(open).toContain(RESTART.title);
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
    expect(bobs.map((source) => source.datasource_id)).toEqual(["wiki", "handbook"]);
    const wikiForBob = bobs[0];
    expect(wikiForBob).toMatchObject({
      name: "Team wiki",
      source_type: "confluence",
      running: false,
      last_error: null,
      can_sync: false,
    });
    expect(wikiForBob?.documents).toBe(wiki.state.pages.length);
    expect(wikiForBob?.last_success).toEqual(expect.any(String));
    expect((await list()).map((source) => source.datasource_id)).toEqual(["wiki", "handbook"]);
    expect((await list("alice")).map((source) => source.datasource_id)).toEqual([
      "wiki",
      "handbook",
      "security",
      "broken",
    ]);

    // bob may not sync, and a source he may not see is as unknown as one that is not there.
    expect((await api("/v1/datasources/wiki/sync", "bob", { method: "POST" })).status).toBe(403);
    expect((await api("/v1/datasources/broken/sync", "bob", { method: "POST" })).status).toBe(404);
    expect((await api("/v1/datasources/broken/sync", undefined, { method: "POST" })).status).toBe(404);

    expect((await api("/v1/datasources/broken/sync", "alice", { method: "POST" })).status).toBe(202);
    await rag.syncer.idle();
    const broken = (await list("alice")).find((source) => source.datasource_id === "broken");
    expect(broken).toMatchObject({ running: false, documents: 0, last_success: null });
    expect(broken?.last_sync).toEqual(expect.any(String));
    expect(broken?.last_error).toEqual(expect.any(String));
    expect(broken?.last_error).not.toContain(wiki.token);
  });

  it("follows an edited page by its new words and a deleted page out, when the source syncs again", async () => {
    const restart = wiki.state.pages.find((one) => one.id === RESTART.id);
    const deleted = wiki.state.pages.find((one) => one.spaceKey === "ENG" && one.id !== RESTART.id);
    if (!restart || !deleted) throw new Error("no ENG pages");
    const client = await mcpAs(tokens.bob);
    const fetchDeleted = () => callText(client, "fetch_document", { document_id: `ENG/${deleted.id}` });
    expect(await fetchDeleted()).toContain(deleted.title);
    restart.body =
      "<h1>Restart the payments service</h1><p>Drain through the pinecone-harbor proxy first, then restart.</p>";
    restart.version += 1;
    restart.updatedAt = new Date().toISOString();
    wiki.state.pages.splice(wiki.state.pages.indexOf(deleted), 1);
    expect((await api("/v1/datasources/wiki/sync", "alice", { method: "POST" })).status).toBe(202);
    await rag.syncer.idle();

    expect(await callText(client, "search", { query: "pinecone-harbor proxy" })).toContain(RESTART.title);
    expect(await callText(client, "search", { query: "pgbouncer pool drain", limit: 50 })).not.toContain(
      "pgbouncer",
    );
    expect(await fetchDeleted()).toContain("not found in the knowledge base");
    await client.close();
  });

  it("takes a file from a source's admin, with that source's readers, and refuses everyone else and what it cannot read", async () => {
    const upload = (
      user: string | undefined,
      source: string,
      name: string,
      text: string | Uint8Array<ArrayBuffer>,
      type = "text/markdown",
    ) => {
      const form = new FormData();
      form.append("file", new Blob([text], { type }), name);
      return api(`/v1/datasources/${source}/documents`, user, { method: "POST", body: form });
    };
    const ROTATION =
      "# Rotating the HSM keys\n\nThe HSM key ceremony needs two officers and the pelican-tangerine-42 card.";
    const stored = await upload("alice", "security", "hsm-rotation.md", ROTATION);
    expect(stored.status).toBe(201);
    expect(await stored.json()).toMatchObject({ datasource_id: "security", document_id: "hsm-rotation.md" });

    const search = async (token: string | undefined) => {
      const client = await mcpAs(token);
      const found = await callText(client, "search", { query: "HSM key ceremony pelican-tangerine-42" });
      await client.close();
      return found;
    };
    expect(await search(tokens.alice)).toContain("pelican-tangerine-42");
    // The security source's readers, not the uploader's choice or everyone's.
    expect(await search(tokens.bob)).not.toContain("pelican-tangerine-42");
    expect(await search(undefined)).not.toContain("pelican-tangerine-42");

    expect((await upload("bob", "handbook", "notes.md", "# Notes")).status).toBe(403);
    expect((await upload(undefined, "handbook", "notes.md", "# Notes")).status).toBe(403);
    expect((await upload("bob", "security", "notes.md", "# Notes")).status).toBe(404);
    const refusals = await Promise.all([
      upload("alice", "wiki", "notes.md", "# Notes"),
      upload("alice", "security", "tool.exe", new Uint8Array([77, 90, 0, 1]), "application/octet-stream"),
      upload("alice", "security", "big.md", "x".repeat(65 * 1024)),
    ]);
    expect(refusals.map((response) => response.status)).toEqual([400, 400, 413]);
    const [wikiRefusal, exeRefusal, bigRefusal] = await Promise.all(
      refusals.map((response) => response.json() as Promise<{ detail: string }>),
    );
    expect(wikiRefusal?.detail).toMatch(/upload/);
    expect(exeRefusal?.detail).toMatch(/Markdown, text, HTML or PDF/);
    expect(bigRefusal?.detail).toMatch(/MAX_LOCAL_FILE_UPLOAD_BYTES/);
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
