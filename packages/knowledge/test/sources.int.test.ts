import { PassThrough } from "node:stream";
import type { Principal } from "@switchboard/agent-runtime";
import { createEmbeddings, readEmbeddingsSettings } from "@switchboard/agent-runtime/embeddings";
import { createLogger } from "@switchboard/common";
import { type FakeConfluence, startFakeConfluence } from "@switchboard-testing/fake-vendors";
import { type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type KnowledgeStore,
  openKnowledgeStore,
  pgliteEngine,
  readSourcesFile,
  type SourceDefinition,
  type SyncProgress,
  syncSource,
} from "../src/index.js";

// Every connector against its vendor's fake over loopback, into one store on PGlite (in memory), with
// embeddings from the runtime's OpenAI client against test-llm: sync, incremental re-syncs (an edit is
// found by its new words only, a deletion is gone, a re-run changes nothing), readers from the
// source's own permissions, and sources that fail (a refused credential, an unreachable host).

const MODEL = "text-embedding-3-small";
const alice: Principal = { subject: "alice", groups: ["sre", "staff"], authenticated: true };
const bob: Principal = { subject: "bob", groups: ["dev", "staff"], authenticated: true };
const anonymous: Principal = { subject: "local", groups: ["sre"], authenticated: false };

let llm: ScriptedLlm;
let store: KnowledgeStore;
let wiki: FakeConfluence;
const logLines = new PassThrough();
let logText = "";
logLines.on("data", (chunk) => {
  logText += String(chunk);
});
const logger = createLogger({ level: "debug", destination: logLines });

/** The sources, as KNOWLEDGE_SOURCES_FILE gives them (URLs filled in once the fakes run). */
let sources: Map<string, SourceDefinition>;
const env = (): NodeJS.ProcessEnv => ({
  CONFLUENCE_USERNAME: wiki.email,
  CONFLUENCE_API_TOKEN: wiki.token,
});

const sync = async (id: string, extraEnv: NodeJS.ProcessEnv = {}) => {
  const seen: SyncProgress[] = [];
  const source = sources.get(id);
  if (!source) throw new Error(`no source ${id}`);
  const result = await syncSource(store, source, {
    env: { ...env(), ...extraEnv },
    logger,
    onProgress: (progress) => seen.push(progress),
  });
  return { result, seen };
};
const found = async (text: string, principal: Principal, source?: string) =>
  (await store.search({ text, principal, k: 20, ...(source ? { sources: [source] } : {}) })).map(
    (hit) => `${hit.sourceId}:${hit.documentId}`,
  );
const chunksOf = async (text: string, principal: Principal, source?: string) =>
  (await store.search({ text, principal, k: 50, ...(source ? { sources: [source] } : {}) }))
    .map((hit) => hit.chunk)
    .join("\n");

beforeAll(async () => {
  llm = await startScriptedLlm({ script: () => say("unused") });
  wiki = await startFakeConfluence();
  const embeddingsEnv = { EMBEDDINGS_PROVIDER: "openai", EMBEDDINGS_MODEL: MODEL, ...llm.env };
  const settings = readEmbeddingsSettings(embeddingsEnv);
  if (!settings) throw new Error("no embeddings settings");
  store = await openKnowledgeStore({
    engine: await pgliteEngine(),
    embeddings: await createEmbeddings(settings, embeddingsEnv),
    embeddingsModel: MODEL,
  });

  // OPS: read by the sre group; a page restricted to alice alone, and its child. ENG: open to anyone.
  const ops = wiki.state.spaces.find((one) => one.key === "OPS");
  const eng = wiki.state.spaces.find((one) => one.key === "ENG");
  if (!ops || !eng) throw new Error("seed changed");
  ops.permissions = { groups: ["sre"], users: ["alice"] };
  eng.permissions = { anonymous: true };
  wiki.state.pages.push(
    {
      id: "65600",
      title: "Incident commander handbook",
      spaceKey: "OPS",
      body: "<h1>Incident commander</h1><p>The commander's bridge code is tangerine-walrus-4412.</p>",
      version: 1,
      updatedAt: new Date().toISOString(),
      updatedBy: "Alice Oncall",
      restrictions: { users: ["alice"] },
    },
    {
      id: "65601",
      title: "Commander escalation tree",
      spaceKey: "OPS",
      body: "<p>Escalate to the duty director, pager ochre-pelican-9031.</p>",
      version: 1,
      updatedAt: new Date().toISOString(),
      updatedBy: "Alice Oncall",
      parentId: "65600",
    },
  );

  sources = new Map(
    readSourcesFile(`
sources:
  - id: wiki
    type: confluence
    url: ${wiki.url}/wiki
    spaces: [OPS, ENG]
  - id: wiki-users
    type: confluence
    url: ${wiki.url}/wiki
    spaces: [OPS]
    match_users: true
`).map((one) => [one.id, one]),
  );
});

afterAll(async () => {
  await store?.close();
  await wiki?.close();
  await llm?.close();
});

describe("the Confluence connector", () => {
  it("ingests a space's pages with their readers from the space's permission and the pages' restrictions", async () => {
    const { result, seen } = await sync("wiki");
    expect(result.error).toBeUndefined();
    expect(result).toEqual({ phase: "done", listed: 5, changed: 3, unchanged: 0, removed: 0, failed: 0 });
    expect(seen.map((one) => one.phase)).toEqual(
      expect.arrayContaining(["listing", "embedding", "removing", "done"]),
    );
    const status = await store.syncStatus("wiki");
    expect(status).toMatchObject({ running: false, progress: result, documents: 3 });
    expect(status?.lastSuccessAt).toBeInstanceOf(Date);

    const [hit] = await store.search({ text: "roll back Argo CD", principal: alice, k: 1 });
    expect(hit).toMatchObject({
      sourceId: "wiki",
      documentId: "OPS/65537",
      title: "Checkout API runbook",
      uri: "https://example.atlassian.net/wiki/spaces/OPS/pages/65537",
    });
    // Storage format's HTML comes out as Markdown: the heading heads the chunk.
    expect(hit?.chunk).toContain("# Checkout API runbook");
    // ENG is open to anyone, OPS to the sre group only.
    expect(await found("upgrade clusters environment", anonymous)).toContain("wiki:ENG/65539");
    expect(await found("roll back Argo CD", bob)).toEqual(expect.not.arrayContaining(["wiki:OPS/65537"]));
  });

  it("keeps a restricted page and its children from everyone the restriction leaves out", async () => {
    // Users are not token subjects unless the source says so: alice's page is stored for nobody here.
    for (const principal of [alice, bob, anonymous]) {
      expect(
        await chunksOf("commander bridge code tangerine walrus escalation pager", principal),
      ).not.toMatch(/tangerine|ochre/);
    }
    const { result } = await sync("wiki-users");
    expect(result).toMatchObject({ phase: "done", listed: 4, changed: 4 });
    expect(await found("commander bridge code tangerine walrus", alice, "wiki-users")).toEqual(
      expect.arrayContaining(["wiki-users:OPS/65600", "wiki-users:OPS/65601"]),
    );
    for (const principal of [bob, anonymous, { ...bob, groups: ["sre"] }]) {
      expect(
        await chunksOf("commander bridge code tangerine walrus escalation pager", principal),
      ).not.toMatch(/tangerine|ochre/);
    }
  });

  it("follows edits and deletions, and a re-run changes nothing", async () => {
    const again = await sync("wiki");
    expect(again.result).toMatchObject({ listed: 5, changed: 0, unchanged: 3, removed: 0 });

    const runbook = wiki.state.pages.find((one) => one.id === "65537");
    if (!runbook) throw new Error("seed changed");
    runbook.body = "<h1>Checkout API runbook</h1><p>When 5xx rise, fail over to the saffron region.</p>";
    runbook.version += 1;
    wiki.state.pages = wiki.state.pages.filter((one) => one.id !== "65538");
    const edited = await sync("wiki");
    expect(edited.result).toMatchObject({ listed: 4, changed: 1, unchanged: 1, removed: 1 });
    expect(await found("fail over saffron region", alice)).toContain("wiki:OPS/65537");
    expect(await chunksOf("roll back with Argo CD", alice, "wiki")).not.toContain("roll back with Argo CD");
    expect(await found("primary on-call acknowledges pages", alice)).not.toContain("wiki:OPS/65538");
    expect((await store.syncStatus("wiki"))?.documents).toBe(2);
  });

  it("records a source whose credential is refused as failed, keeps its documents, and never shows the credential", async () => {
    const { result } = await sync("wiki", { CONFLUENCE_API_TOKEN: "wrong-token-sekrit-123" });
    expect(result.phase).toBe("failed");
    expect(result.error).toMatch(/HTTP 401.*CONFLUENCE_API_TOKEN/);
    const status = await store.syncStatus("wiki");
    expect(status).toMatchObject({ running: false, documents: 2, progress: { phase: "failed" } });
    expect(status?.lastError).toContain("CONFLUENCE_API_TOKEN");
    expect(await found("fail over saffron region", alice)).toContain("wiki:OPS/65537");

    const unset = await sync("wiki", { CONFLUENCE_API_TOKEN: "" });
    expect(unset.result.error).toMatch(/CONFLUENCE_API_TOKEN, which is not set/);
    expect(JSON.stringify(await store.syncStatus())).not.toMatch(/sekrit|fake-confluence-token/);
    expect(logText).not.toMatch(/sekrit|fake-confluence-token/);
  });
});
