import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import type { Principal } from "@switchboard/agent-runtime";
import { createEmbeddings, readEmbeddingsSettings } from "@switchboard/agent-runtime/embeddings";
import { createLogger } from "@switchboard/common";
import { type FakeGithub, startFakeGithub } from "@switchboard-testing/fake-github";
import {
  type FakeBackstage,
  type FakeConfluence,
  startFakeBackstage,
  startFakeConfluence,
} from "@switchboard-testing/fake-vendors";
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
  uploadDocument,
} from "../src/index.js";

// Every connector against its vendor's fake over loopback, into one store on PGlite (in memory), with
// embeddings from the runtime's OpenAI client against test-llm: sync, incremental re-syncs (an edit is
// found by its new words only, a deletion is gone, a re-run changes nothing), readers from the
// source's own permissions, and sources that fail (a refused credential, an unreachable host).

const MODEL = "text-embedding-3-small";
const alice: Principal = { subject: "alice", groups: ["sre", "staff"], authenticated: true };
const bob: Principal = { subject: "bob", groups: ["dev", "staff"], authenticated: true };
/** In GitHub's `platform` team (a group of the same name in the token). */
const carol: Principal = { subject: "carol", groups: ["platform"], authenticated: true };
const anonymous: Principal = { subject: "local", groups: ["sre"], authenticated: false };

let llm: ScriptedLlm;
let store: KnowledgeStore;
let wiki: FakeConfluence;
let github: FakeGithub;
let catalog: FakeBackstage;
let site: Server;
let siteUrl: string;
/** Paths the small site was asked for. */
const siteRequests: string[] = [];
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
  GITHUB_PERSONAL_ACCESS_TOKEN: github.token,
  BACKSTAGE_API_TOKEN: catalog.token,
  // The small site is on loopback: the web sources' network guard is lifted for it (and tested held below).
  KNOWLEDGE_WEB_ALLOW_PRIVATE_NETWORKS: "true",
  KNOWLEDGE_FETCH_MAX_BYTES: String(64 * 1024),
});

/** The small site's pages: a sitemap index, a sitemap, HTML and text pages, a redirect loop and a huge page. */
const SITE: Record<
  string,
  { type: string; body: (base: string) => string; status?: number; location?: string }
> = {
  "/sitemap.xml": {
    type: "application/xml",
    body: (base) =>
      `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base}/sitemap-pages.xml</loc></sitemap></sitemapindex>`,
  },
  "/sitemap-pages.xml": {
    type: "application/xml",
    body: (base) =>
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[
        "/handbook/onboarding",
        "/handbook/deploys",
        "/notes.txt",
        "/loop",
        "/huge",
        "/old-deploys",
        "/retired",
        "/runbook.pdf",
        "/logo.png",
      ]
        .map((path) => `<url><loc>${base}${path}</loc></url>`)
        .join("")}<url><loc>file:///etc/passwd</loc></url></urlset>`,
  },
  "/handbook/onboarding": {
    type: "text/html; charset=utf-8",
    body: () =>
      `<html><head><title>Onboarding &amp; laptops</title><script>var tracking = "cobalt-beacon";</script></head>
       <body><nav>Home | Handbook | Login</nav><h1>Onboarding</h1><p>New engineers get a laptop from the
       <a href="/it">IT desk</a> on their first day.</p><footer>Copyright cobalt-footer</footer></body></html>`,
  },
  "/handbook/deploys": {
    type: "text/html",
    body: () =>
      "<html><head><title>Deploy windows</title></head><body><h1>Deploys</h1><p>We deploy on weekdays before four.</p></body></html>",
  },
  "/notes.txt": { type: "text/plain", body: () => "Plain notes: the staging database is refreshed nightly." },
  "/loop": { type: "text/html", body: () => "", status: 302, location: "/loop" },
  "/old-deploys": { type: "text/html", body: () => "", status: 301, location: "/handbook/deploys" },
  "/runbook.pdf": { type: "application/pdf", body: () => "" },
  "/logo.png": { type: "image/png", body: () => "PNG" },
  "/huge": { type: "text/html", body: () => `<p>${"big ".repeat(40_000)}</p>` },
};

const sync = async (id: string, extraEnv: NodeJS.ProcessEnv = {}, signal?: AbortSignal) => {
  const seen: SyncProgress[] = [];
  /** The status every replica read while the sync ran (read when the listing was done). */
  let during: Promise<unknown> | undefined;
  const source = sources.get(id);
  if (!source) throw new Error(`no source ${id}`);
  const result = await syncSource(store, source, {
    env: { ...env(), ...extraEnv },
    logger,
    ...(signal ? { signal } : {}),
    onProgress: (progress) => {
      seen.push(progress);
      if (progress.phase === "embedding") during ??= store.syncStatus(id);
    },
  });
  return { result, seen, during: await during };
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
  github = await startFakeGithub();
  catalog = await startFakeBackstage();
  site = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://site").pathname;
    siteRequests.push(path);
    const page = SITE[path];
    if (!page) return response.writeHead(404).end("not found");
    response.writeHead(page.status ?? 200, {
      "content-type": page.type,
      ...(page.location ? { location: page.location } : {}),
    });
    response.end(
      path === "/runbook.pdf"
        ? minimalPdf("Web runbook: restart the ingress with the saffron script")
        : page.body(siteUrl),
    );
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

  // A public repository with docs and ADRs, and a private one read by the platform team.
  const infra = github.state.repos.find((one) => one.name === "infra");
  const platform = github.state.repos.find((one) => one.name === "platform-api");
  if (!infra || !platform) throw new Error("fake-github's seed changed");
  infra.files = {
    "README.md": "# Infra\n\nTerraform for the clusters.",
    "docs/adr/0001-use-karpenter.md":
      "# ADR 1: Use Karpenter\n\nWe scale nodes with Karpenter instead of the cluster autoscaler.",
    "docs/adr/0002-one-vpc.md": "# ADR 2: One VPC per region\n\nEvery region has one shared VPC.",
    "docs/guide.markdown": "Node pools are named after birds.",
    "main.tf": 'resource "aws_vpc" "main" {}',
  };
  platform.files = {
    "docs/runbook.md": "# Platform API runbook\n\nThe rate limiter's override key is umber-lynx-2207.",
  };
  platform.teams = ["platform"];
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
  - id: infra
    type: github
    repo: acme/infra
    api_url: ${github.url}
    paths: [docs, README.md]
  - id: platform
    type: github
    repo: acme/platform-api
    api_url: ${github.url}
  - id: catalog
    type: backstage
    url: ${catalog.url}
    filter: ["kind=component"]
    readers: { groups: [staff] }
  - id: unreachable
    type: backstage
    url: http://127.0.0.1:9
    readers: everyone
  - id: handbook
    type: web
    sitemap: ${siteUrl}/sitemap.xml
    urls: [${siteUrl}/handbook/onboarding]
    readers: { groups: [staff] }
  - id: files
    type: upload
    readers: { groups: [staff] }
`).map((one) => [one.id, one]),
  );
});

afterAll(async () => {
  await store?.close();
  await wiki?.close();
  await github?.close();
  await catalog?.close();
  await new Promise((resolve) => site?.close(resolve));
  await llm?.close();
});

describe("the Confluence connector", () => {
  it("ingests a space's pages with their readers from the space's permission and the pages' restrictions", async () => {
    const { result, seen, during } = await sync("wiki");
    expect(result.error).toBeUndefined();
    expect(result).toEqual({ phase: "done", listed: 5, changed: 3, unchanged: 0, removed: 0, failed: 0 });
    expect(seen.map((one) => one.phase)).toEqual(
      expect.arrayContaining(["listing", "embedding", "removing", "done"]),
    );
    expect(during).toMatchObject({ running: true, progress: { phase: "listing" } });
    const status = await store.syncStatus("wiki");
    expect(status).toMatchObject({ running: false, progress: result, documents: 3 });
    expect(status?.lastSuccessAt).toBeInstanceOf(Date);

    const [hit] = await store.search({ text: "roll back Argo CD", principal: alice, k: 1 });
    expect(hit).toMatchObject({
      sourceId: "wiki",
      documentId: "OPS/65537",
      title: "Checkout API runbook",
      uri: `${wiki.url}/wiki/spaces/OPS/pages/65537`,
    });
    // Storage format's HTML comes out as Markdown: the heading heads the chunk.
    expect(hit?.chunk).toContain("# Checkout API runbook");
    // ENG is open to anyone, OPS to the sre group only.
    expect(await found("upgrade clusters environment", anonymous)).toContain("wiki:ENG/65539");
    // Bob (not in sre) and an unauthenticated caller get no chunk of OPS, by any words of it, in any mode.
    const opsWords = wiki.state.pages
      .filter((page) => page.spaceKey === "OPS")
      .flatMap((page) => [page.title, page.body.replace(/<[^>]+>/g, " ")]);
    for (const principal of [bob, anonymous]) {
      for (const text of [...opsWords, "OPS", "runbook on-call", "*"]) {
        for (const mode of ["hybrid", "keyword", "vector"] as const) {
          const hits = await store.search({ text, principal, mode, k: 50 });
          expect(hits.filter((hit) => hit.documentId.startsWith("OPS/"))).toEqual([]);
        }
      }
    }
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

    const cancelled = await sync("wiki", {}, AbortSignal.abort());
    expect(cancelled.result).toMatchObject({ phase: "failed", error: "the sync was cancelled", removed: 0 });
    expect((await store.syncStatus("wiki"))?.documents).toBe(2);

    const unset = await sync("wiki", { CONFLUENCE_API_TOKEN: "" });
    expect(unset.result.error).toMatch(/CONFLUENCE_API_TOKEN, which is not set/);
    expect(JSON.stringify(await store.syncStatus())).not.toMatch(/sekrit|fake-confluence-token/);
    expect(logText).not.toMatch(/sekrit|fake-confluence-token/);
  });
});

describe("links", () => {
  it("refuses a document whose link is not the web's (a lying source's javascript:, data: or file: link)", async () => {
    const hostile = [
      "javascript:alert(document.cookie)",
      "data:text/html,<script>x()</script>",
      "file:///etc/passwd",
      "no link",
    ];
    const result = await store.upsertDocuments(
      "hostile",
      hostile.map((uri, index) => ({
        id: `d${index}`,
        uri,
        title: "t",
        text: "some text",
        readers: "everyone",
      })),
    );
    expect(result.added).toEqual([]);
    expect(result.failed.map((one) => one.error)).toEqual(
      hostile.map(() => expect.stringMatching(/its link is not an http\(s\) URL/)),
    );
    expect((await store.syncStatus("hostile"))?.documents).toBe(0);
  });
});

describe("sync status", () => {
  it("does not show a sync as running once its process stopped recording progress (it ended mid-sync)", async () => {
    await store.recordProgress(
      "wiki",
      { phase: "embedding", listed: 4, changed: 1, unchanged: 0, removed: 0, failed: 0 },
      true,
    );
    expect((await store.syncStatus("wiki"))?.running).toBe(true);
    await store.engine.query(
      `UPDATE knowledge_sources SET progress_at = now() - interval '10 minutes' WHERE source_id = 'wiki'`,
    );
    expect(await store.syncStatus("wiki")).toMatchObject({
      running: false,
      progress: { phase: "embedding" },
    });
  });
});

describe("the GitHub connector", () => {
  it("reads a public repository's Markdown under its paths, readable by everyone, linked to the file", async () => {
    const { result } = await sync("infra");
    expect(result).toMatchObject({ phase: "done", listed: 4, changed: 4, failed: 0 });
    const [hit] = await store.search({
      text: "scale nodes Karpenter autoscaler",
      principal: anonymous,
      k: 1,
    });
    expect(hit).toMatchObject({
      sourceId: "infra",
      documentId: "docs/adr/0001-use-karpenter.md",
      title: "ADR 1: Use Karpenter",
      uri: `${github.webUrl}/acme/infra/blob/main/docs/adr/0001-use-karpenter.md`,
    });
    // Not Markdown, or outside the paths: not read.
    expect(await chunksOf("aws_vpc resource", anonymous, "infra")).not.toContain("aws_vpc");
    expect((await store.syncStatus("infra"))?.documents).toBe(4);
  });

  it("gives a private repository's files only to its teams", async () => {
    const { result } = await sync("platform");
    expect(result).toMatchObject({ phase: "done", listed: 1, changed: 1 });
    expect(await found("rate limiter override key", carol)).toContain("platform:docs/runbook.md");
    for (const principal of [alice, bob, anonymous, { ...carol, authenticated: false }]) {
      expect(await chunksOf("rate limiter override key umber lynx runbook", principal)).not.toMatch(/umber/);
    }

    // The repository changes hands: its file is not read again (same blob), but its readers follow at once.
    const platform = github.state.repos.find((one) => one.name === "platform-api");
    if (!platform) throw new Error("seed changed");
    platform.teams = ["security"];
    const blobsBefore = github.requests.filter((one) => one.path.includes("/git/blobs/")).length;
    const moved = await sync("platform");
    expect(moved.result).toMatchObject({ phase: "done", listed: 1, changed: 0, unchanged: 1 });
    expect(github.requests.filter((one) => one.path.includes("/git/blobs/")).length).toBe(blobsBefore);
    expect(await chunksOf("rate limiter override key umber lynx runbook", carol)).not.toMatch(/umber/);
    expect(await found("rate limiter override key", { ...carol, groups: ["security"] })).toContain(
      "platform:docs/runbook.md",
    );

    // No team left and users not matched: nobody here may read it, so it goes.
    platform.teams = [];
    expect((await sync("platform")).result).toMatchObject({ phase: "done", listed: 1, removed: 1 });
    expect((await store.syncStatus("platform"))?.documents).toBe(0);
  });

  it("follows a changed and a deleted file", async () => {
    const infra = github.state.repos.find((one) => one.name === "infra");
    if (!infra) throw new Error("seed changed");
    infra.files["docs/adr/0001-use-karpenter.md"] =
      "# ADR 1: Use Karpenter\n\nSuperseded: we scale with spot fleets.";
    delete infra.files["docs/adr/0002-one-vpc.md"];
    const blobsBefore = github.requests.filter((one) => one.path.includes("/git/blobs/")).length;
    const { result } = await sync("infra");
    expect(result).toMatchObject({ listed: 3, changed: 1, unchanged: 2, removed: 1 });
    // Only the changed file was read again.
    expect(github.requests.filter((one) => one.path.includes("/git/blobs/")).length).toBe(blobsBefore + 1);
    expect(await found("superseded spot fleets", anonymous)).toContain(
      "infra:docs/adr/0001-use-karpenter.md",
    );
    expect(await chunksOf("cluster autoscaler Karpenter", anonymous, "infra")).not.toContain(
      "cluster autoscaler",
    );
    expect(await found("shared VPC region", anonymous, "infra")).not.toContain(
      "infra:docs/adr/0002-one-vpc.md",
    );
  });
});

describe("the Backstage connector", () => {
  it("ingests catalog entities as documents with their owner and links, for the source's readers", async () => {
    const { result } = await sync("catalog");
    expect(result.phase).toBe("done");
    expect(result.listed).toBeGreaterThan(0);
    const [hit] = await store.search({ text: "takes payments web shop", principal: bob, k: 1 });
    expect(hit).toMatchObject({
      sourceId: "catalog",
      documentId: "component:default/checkout-api",
      title: "Checkout API",
      uri: `${catalog.url}/catalog/default/component/checkout-api`,
    });
    expect(hit?.chunk).toContain("Owner: group:default/payments");
    expect(await found("takes payments web shop", anonymous, "catalog")).toEqual([]);
    expect((await sync("catalog")).result).toMatchObject({ changed: 0, unchanged: result.changed });
  });

  it("records an unreachable source as failed, with where and why", async () => {
    const { result } = await sync("unreachable");
    expect(result).toMatchObject({ phase: "failed", listed: 0 });
    expect(result.error).toMatch(
      /Backstage \(source "unreachable"\) could not be reached at http:\/\/127\.0\.0\.1:9/,
    );
    const status = await store.syncStatus("unreachable");
    expect(status).toMatchObject({ running: false, documents: 0, lastError: result.error });
    expect(status?.lastSuccessAt).toBeUndefined();
  });
});

describe("the web connector", () => {
  it("reads a sitemap's pages as text without the page's furniture; a loop, a huge page and a non-web link fail alone", async () => {
    const { result } = await sync("handbook");
    // 9 listed: 5 pages read (a PDF among them), the image skipped, the retired page (404) gone, two failures.
    expect(result).toMatchObject({ phase: "done", listed: 9, changed: 5, failed: 2 });
    expect(result.error).toMatch(/\/loop.*redirects more than 5 times/);
    expect(result.error).toMatch(/\/huge.*larger than 65536 bytes.*KNOWLEDGE_FETCH_MAX_BYTES/);
    expect(siteRequests).not.toContain("/etc/passwd");
    const [hit] = await store.search({ text: "laptop IT desk first day", principal: alice, k: 1 });
    expect(hit).toMatchObject({
      documentId: `${siteUrl}/handbook/onboarding`,
      title: "Onboarding & laptops",
      uri: `${siteUrl}/handbook/onboarding`,
    });
    const text = await chunksOf("onboarding laptop cobalt tracking footer", alice);
    expect(text).not.toMatch(/cobalt|Login/);
    // A redirect is followed; the document links where it ended.
    expect(await store.search({ text: "deploy weekdays before four", principal: alice, k: 5 })).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ documentId: `${siteUrl}/old-deploys`, uri: `${siteUrl}/handbook/deploys` }),
      ]),
    );
    expect(await found("staging database refreshed nightly", alice)).toContain(
      `handbook:${siteUrl}/notes.txt`,
    );
    expect(await found("restart ingress saffron script", alice)).toContain(`handbook:${siteUrl}/runbook.pdf`);
    expect(result.error).not.toMatch(/retired|logo/);
    expect(await found("laptop IT desk", anonymous, "handbook")).toEqual([]);
  });

  it("reads no private address unless KNOWLEDGE_WEB_ALLOW_PRIVATE_NETWORKS allows it, and keeps what it had", async () => {
    const before = siteRequests.length;
    const { result } = await sync("handbook", { KNOWLEDGE_WEB_ALLOW_PRIVATE_NETWORKS: "false" });
    expect(result.phase).toBe("failed");
    expect(result.error).toMatch(/127\.0\.0\.1.*private address.*KNOWLEDGE_WEB_ALLOW_PRIVATE_NETWORKS=true/);
    expect(siteRequests.length).toBe(before);
    expect((await store.syncStatus("handbook"))?.documents).toBe(5);
  });
});

describe("uploaded files", () => {
  it("takes Markdown, HTML and PDF into an upload source, and refuses what it cannot read", async () => {
    const files = sources.get("files");
    const infra = sources.get("infra");
    if (!files || !infra) throw new Error("no sources");
    const bytes = (text: string) => new TextEncoder().encode(text);
    await uploadDocument(store, files, {
      name: "notes/oncall.md",
      type: "text/markdown",
      bytes: bytes("# On-call swaps\n\nSwap shifts in the rota tool, then tell the channel."),
    });
    await uploadDocument(store, files, {
      name: "policy.html",
      type: "",
      bytes: bytes(
        "<title>Travel policy</title><h1>Travel</h1><p>Book trains for trips under four hours.</p>",
      ),
    });
    const pdf = await uploadDocument(
      store,
      files,
      {
        name: "vpn.pdf",
        type: "application/pdf",
        bytes: minimalPdf("Connect to the VPN with the periwinkle profile"),
      },
      { users: ["alice"] },
    );
    expect(pdf).toMatchObject({ added: ["vpn.pdf"], failed: [] });
    expect(await store.search({ text: "swap shifts rota", principal: bob, k: 1 })).toEqual([
      expect.objectContaining({
        documentId: "oncall.md",
        title: "On-call swaps",
        uri: "upload://files/oncall.md",
      }),
    ]);
    expect(await found("book trains trips", bob)).toContain("files:policy.html");
    expect(await found("VPN periwinkle profile", alice)).toContain("files:vpn.pdf");
    expect(await found("VPN periwinkle profile", bob)).not.toContain("files:vpn.pdf");

    // A sync of an upload source lists nothing and removes nothing.
    expect((await sync("files")).result).toMatchObject({ phase: "done", removed: 0 });
    expect((await store.syncStatus("files"))?.documents).toBe(3);

    const file = { name: "x.md", type: "text/markdown", bytes: bytes("# x") };
    await expect(uploadDocument(store, infra, file)).rejects.toThrow(/github source.*source of type upload/);
    await expect(
      uploadDocument(store, files, { ...file, name: "tool.exe", type: "application/octet-stream" }),
    ).rejects.toThrow(/not a file the knowledge base reads: upload Markdown, text, HTML or PDF/);
    await expect(
      uploadDocument(store, files, { ...file, name: "bad.pdf", type: "application/pdf" }),
    ).rejects.toThrow(/could not be read as a PDF/);
    await expect(uploadDocument(store, files, file, undefined, { maxBytes: 2 })).rejects.toThrow(
      /larger than 2 bytes.*KNOWLEDGE_FETCH_MAX_BYTES/,
    );
    await expect(uploadDocument(store, files, { ...file, name: "../" })).rejects.toThrow(/no name/);
  });
});

/** A one-page PDF showing `text` in Helvetica, with a correct cross-reference table. */
function minimalPdf(text: string): Uint8Array {
  const content = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}
