import type { Principal } from "@switchboard/agent-runtime";
import { createEmbeddings, readEmbeddingsSettings } from "@switchboard/agent-runtime/embeddings";
import { type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { startPostgres, type TestPostgres } from "@switchboard-testing/test-postgres";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Engine,
  type KnowledgeDocument,
  type KnowledgeStore,
  openKnowledgeStore,
  pgliteEngine,
  postgresEngine,
  type SearchQuery,
} from "../src/index.js";

// The store on both engines, for real: PostgreSQL (Debian's) with pgvector, started by test-postgres,
// and PGlite with its pgvector build in this process. Embeddings come from the runtime's
// EMBEDDINGS_PROVIDER code (OpenAI's LangChain client) talking to the test LLM's embeddings endpoint,
// whose vectors are deterministic: texts sharing words are close, texts sharing none orthogonal.

/** The test LLM refuses larger bodies with 413 (as providers refuse input too long): a failed embedding. */
const MAX_BODY_BYTES = 64 * 1024;
const MODEL = "text-embedding-3-small";

const alice: Principal = { subject: "alice", groups: ["sre"], authenticated: true };
const bob: Principal = { subject: "bob", groups: ["dev"], authenticated: true };
/** A verified user in no group: reads what everyone may read (and what names them). */
const carol: Principal = { subject: "carol", groups: [], authenticated: true };
/** AUTH_MODE=none's principal: it reads what everyone may read, whatever groups it carries. */
const anonymous: Principal = { subject: "local", groups: ["sre"], authenticated: false };

const RESTART = `# Restart the payments service

## Before you start
Drain the payments queue and tell the on-call channel.

## Steps
1. Scale the payments deployment to zero.
2. Wait for the pgbouncer pool to empty.
3. Scale back to three replicas and watch the error rate.`;

const ROTATE = `# Rotate the database credentials

Credentials for the orders database are rotated every ninety days. Generate a new password in the
secrets manager, update the orders service, then revoke the old password.`;

/** Only the SRE group may read it. Its words are all of a kind nobody else's documents use. */
const BREAK_GLASS = `# Break-glass access to production

The break-glass passphrase is kept in the vault under secret/breakglass/zephyr-quokka-71. Only the
incident commander opens it, and every opening pages the security team.`;

/** Only alice may read it. */
const ALICE_NOTES = `# Alice's onboarding notes

My laptop serial is marmalade-heron-5521; the staging cluster kubeconfig is in my home folder.`;

const runbook = (id: string, title: string, text: string): KnowledgeDocument => ({
  id,
  uri: `https://docs.example.com/runbooks/${id}`,
  title,
  text,
  readers: "everyone",
});

const secretDocuments: KnowledgeDocument[] = [
  {
    id: "break-glass",
    uri: "https://docs.example.com/security/break-glass",
    title: "Break-glass access to production",
    text: BREAK_GLASS,
    readers: { groups: ["sre"] },
  },
  {
    id: "alice-notes",
    uri: "https://docs.example.com/people/alice",
    title: "Alice's onboarding notes",
    text: ALICE_NOTES,
    readers: { users: ["alice"] },
  },
];
const SECRET_IDS = secretDocuments.map((document) => document.id);

const ATTACK_TEXTS = [
  BREAK_GLASS,
  ALICE_NOTES,
  "Break-glass access to production",
  "zephyr-quokka-71",
  "secret/breakglass/zephyr-quokka-71",
  "marmalade-heron-5521",
  "*",
  "",
  "   ",
  '"break-glass passphrase" OR vault OR -payments',
  "breakglass | quokka & !payments",
  "' OR 1=1 --",
  "'); DELETE FROM knowledge_documents; --",
  "break-glass' OR readers && ARRAY['group:sre'] --",
  "\\x00 %_ $1 $2 ::vector",
  "break-glass\u0000 passphrase",
  "everyone group:sre user:alice",
];

const engines: Array<[string, () => Promise<{ engine: Engine; stop(): Promise<void> }>]> = [
  [
    "PostgreSQL + pgvector",
    async () => {
      const postgres: TestPostgres = await startPostgres({ pgvector: true });
      return { engine: postgresEngine(postgres.dsn), stop: () => postgres.stop() };
    },
  ],
  ["PGlite", async () => ({ engine: await pgliteEngine(), stop: async () => {} })],
];

describe.each(engines)("the knowledge store on %s", (_name, startEngine) => {
  let llm: ScriptedLlm;
  let engine: Engine;
  let stopEngine: () => Promise<void>;
  let store: KnowledgeStore;

  const embeddings = () => {
    const env = { EMBEDDINGS_PROVIDER: "openai", EMBEDDINGS_MODEL: MODEL, ...llm.env };
    const settings = readEmbeddingsSettings(env);
    if (!settings) throw new Error("no embeddings settings");
    return createEmbeddings(settings, env);
  };
  const ids = async (query: SearchQuery) => (await store.search(query)).map((hit) => hit.documentId);

  beforeAll(async () => {
    llm = await startScriptedLlm({ script: () => say("unused"), maxBodyBytes: MAX_BODY_BYTES });
    ({ engine, stop: stopEngine } = await startEngine());
    store = await openKnowledgeStore({ engine, embeddings: await embeddings(), embeddingsModel: MODEL });
    const runbooks = await store.upsertDocuments("runbooks", [
      runbook("restart-payments", "Restart the payments service", RESTART),
      runbook("rotate-credentials", "Rotate the database credentials", ROTATE),
    ]);
    expect(runbooks.added.sort()).toEqual(["restart-payments", "rotate-credentials"]);
    const secrets = await store.upsertDocuments("security", secretDocuments);
    expect(secrets.added.sort()).toEqual(["alice-notes", "break-glass"]);
  });

  afterAll(async () => {
    await store?.close();
    await stopEngine?.();
    await llm?.close();
  });

  it("finds by meaning what the exact words miss, and by exact words, each hit with its source, title, link and chunk", async () => {
    // No runbook has every one of these words, so full text alone finds nothing; the vector half finds the
    // runbook that shares some of them.
    const question = "steps to restart payments safely during an outage window";
    expect(await ids({ text: question, principal: bob, mode: "keyword" })).toEqual([]);
    const [top] = await store.search({ text: question, principal: bob });
    expect(top).toMatchObject({
      sourceId: "runbooks",
      documentId: "restart-payments",
      title: "Restart the payments service",
      uri: "https://docs.example.com/runbooks/restart-payments",
    });
    expect(top?.chunk).toContain("Scale the payments deployment to zero");
    expect(top?.score).toBeGreaterThan(0);

    // A rare exact word (stemmed: "rotating" finds "rotated") ranks its document first, in both modes.
    for (const mode of ["keyword", "hybrid"] as const) {
      const hits = await store.search({ text: "pgbouncer", principal: bob, mode });
      expect(hits[0]?.documentId).toBe("restart-payments");
      expect((await ids({ text: "rotating orders password", principal: bob, mode }))[0]).toBe(
        "rotate-credentials",
      );
    }
    // Restricted to a source, only that source answers.
    expect(await ids({ text: "payments", principal: alice, sources: ["security"] })).not.toContain(
      "restart-payments",
    );
  });

  it("gives each principal only what it may read, by any query, in every mode", async () => {
    expect(await ids({ text: "break-glass passphrase vault", principal: alice, k: 1 })).toEqual([
      "break-glass",
    ]);
    expect(await ids({ text: "marmalade-heron-5521 laptop serial", principal: alice, k: 1 })).toEqual([
      "alice-notes",
    ]);
    for (const principal of [bob, carol, anonymous]) {
      for (const text of ATTACK_TEXTS) {
        for (const mode of ["hybrid", "keyword", "vector"] as const) {
          const hits = await store.search({ text, principal, mode, k: 50 });
          for (const hit of hits) {
            expect(SECRET_IDS).not.toContain(hit.documentId);
            expect(hit.chunk).not.toMatch(/zephyr|quokka|marmalade|breakglass/i);
          }
        }
      }
      // Naming the restricted source does not open it, nor does a source name shaped like SQL.
      expect(await ids({ text: "break-glass passphrase", principal, sources: ["security"] })).toEqual([]);
      expect(
        await ids({
          text: "break-glass passphrase",
          principal,
          sources: ["security' OR '1'='1", "security\u0000"],
        }),
      ).toEqual([]);
    }
    // Alice's groups do not open another user's document, nor does a group named like a user or like everyone.
    const forged: Principal = {
      subject: "mallory",
      groups: ["user:alice", "everyone", "group:sre"],
      authenticated: true,
    };
    expect(await ids({ text: ALICE_NOTES, principal: forged, k: 50 })).not.toContain("alice-notes");
    expect(await ids({ text: BREAK_GLASS, principal: forged, k: 50 })).not.toContain("break-glass");
    expect(await ids({ text: ALICE_NOTES, principal: { ...alice, subject: "alice2" }, k: 50 })).not.toContain(
      "alice-notes",
    );
    // Too long a text or too many hits are refused with why, before any embedding or scan.
    await expect(store.search({ text: "x".repeat(4_001), principal: bob })).rejects.toThrow(
      "A search text may hold at most 4000 characters (this one has 4001): ask a shorter question.",
    );
    await expect(store.search({ text: "payments", principal: bob, k: 51 })).rejects.toThrow(
      "k must be a whole number from 1 to 50, not 51.",
    );
    // And the queries above left the store as it was.
    expect((await store.syncStatus("security"))?.documents).toBe(2);
  });

  it("hands a whole document back, and names its sources, only to a principal who may read it", async () => {
    const [restart] = await store.fetchDocument({ documentId: "restart-payments", principal: anonymous });
    expect(restart).toMatchObject({ sourceId: "runbooks", title: "Restart the payments service" });
    expect(restart?.text).toContain("Scale back to three replicas");
    expect(await store.fetchDocument({ documentId: "break-glass", principal: alice })).toHaveLength(1);
    expect(await store.readableSources(alice)).toEqual(["runbooks", "security"]);
    for (const principal of [bob, carol, anonymous]) {
      for (const documentId of [...SECRET_IDS, "' OR 1=1 --", "%", "*"]) {
        expect(await store.fetchDocument({ documentId, principal })).toEqual([]);
        expect(await store.fetchDocument({ documentId, principal, sources: ["security"] })).toEqual([]);
      }
      expect(await store.readableSources(principal)).toEqual(["runbooks"]);
    }
    // Naming another source narrows; it never widens.
    expect(
      await store.fetchDocument({ documentId: "break-glass", principal: alice, sources: ["runbooks"] }),
    ).toEqual([]);
  });

  it("never gives bob a restricted chunk for any text, including pieces of the restricted documents", async () => {
    const pieceOf = (text: string) =>
      fc
        .tuple(fc.nat({ max: text.length - 1 }), fc.integer({ min: 1, max: 80 }))
        .map(([start, length]) => text.slice(start, start + length));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.string({ unit: "binary" }),
          fc.string({ unit: "grapheme" }),
          pieceOf(BREAK_GLASS),
          pieceOf(ALICE_NOTES),
        ),
        fc.constantFrom("hybrid" as const, "keyword" as const),
        async (text, mode) => {
          const hits = await store.search({ text, principal: bob, mode, k: 50 });
          expect(hits.filter((hit) => SECRET_IDS.includes(hit.documentId))).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("finds an edited document by its new text and not its old one; re-upserting what did not change embeds nothing", async () => {
    const v1 = runbook("dns", "Change a DNS record", "Records for the edge live in the route53 zone alpha.");
    await store.upsertDocuments("wiki", [v1]);
    expect((await ids({ text: "route53 zone alpha", principal: bob, mode: "keyword" }))[0]).toBe("dns");

    const calls = llm.embeddingCalls.length;
    const again = await store.upsertDocuments("wiki", [v1]);
    expect(again).toEqual({ added: [], changed: [], unchanged: ["dns"], failed: [] });
    expect(llm.embeddingCalls.length).toBe(calls);

    const v2 = { ...v1, text: "Records for the edge moved to the cloudflare zone bravo." };
    expect(await store.upsertDocuments("wiki", [v2])).toMatchObject({ changed: ["dns"] });
    expect(llm.embeddingCalls.length).toBe(calls + 1);
    for (const mode of ["keyword", "hybrid"] as const) {
      const hits = await store.search({ text: "cloudflare zone bravo", principal: bob, mode });
      expect(hits[0]).toMatchObject({ documentId: "dns" });
      expect(hits[0]?.chunk).toContain("cloudflare");
    }
    // The old text is gone: no chunk holds it.
    expect(await ids({ text: "route53 alpha", principal: bob, mode: "keyword" })).toEqual([]);
    const old = await store.search({ text: "route53 alpha", principal: bob, k: 50 });
    expect(old.some((hit) => hit.chunk.includes("route53"))).toBe(false);
    expect((await store.syncStatus("wiki"))?.chunks).toBe(1);

    // New readers on the same text: not embedded again, and the new readers hold at once.
    const hidden = { ...v2, readers: { groups: ["sre"] } };
    const beforeReaders = llm.embeddingCalls.length;
    expect(await store.upsertDocuments("wiki", [hidden])).toMatchObject({ unchanged: ["dns"] });
    expect(llm.embeddingCalls.length).toBe(beforeReaders);
    expect(await ids({ text: "cloudflare zone bravo", principal: bob, k: 50 })).not.toContain("dns");
    expect(await ids({ text: "cloudflare zone bravo", principal: alice, k: 1 })).toEqual(["dns"]);
  });

  it("forgets a document its source no longer has, and counts what each source holds", async () => {
    const calls = llm.embeddingCalls.length;
    await store.upsertDocuments("handbook", [
      runbook("vacation", "Vacation policy", "Book vacation in the HR portal two weeks ahead."),
      runbook("expenses", "Expenses", "Submit expenses with receipts within thirty days."),
    ]);
    // New documents are embedded together: one call for both.
    expect(llm.embeddingCalls.length).toBe(calls + 1);
    expect(await store.syncStatus("handbook")).toMatchObject({ documents: 2, chunks: 2 });
    expect(await store.removeMissing("handbook", ["expenses"])).toEqual(["vacation"]);
    expect(await ids({ text: "vacation HR portal", principal: bob, k: 50 })).not.toContain("vacation");
    expect(await store.syncStatus("handbook")).toMatchObject({ documents: 1, chunks: 1 });
    expect(await ids({ text: "receipts", principal: bob, k: 1 })).toEqual(["expenses"]);
  });

  it("keeps the previous version searchable when embedding fails, and shows the error in the sync status until a sync works", async () => {
    const v1 = runbook(
      "oncall",
      "On-call handover",
      "Hand the pager over at nine with the open incidents list.",
    );
    await store.upsertDocuments("ops", [v1]);
    const before = await store.syncStatus("ops");
    expect(before).toMatchObject({ documents: 1 });
    expect(before?.lastError).toBeUndefined();

    // The edit is too large for the embeddings endpoint, which refuses it (413).
    const huge = { ...v1, text: `Hand the pager over at ten. ${"escalation matrix details ".repeat(4_000)}` };
    const result = await store.upsertDocuments("ops", [
      huge,
      runbook("fresh", "Fresh page", "A small new page."),
    ]);
    // Embedded together first, then, the call refused, each alone: only the large one fails.
    expect(result.failed).toEqual([{ id: "oncall", error: expect.stringMatching(/413|larger than/) }]);
    expect(result.added).toEqual(["fresh"]);
    const hits = await store.search({ text: "pager nine incidents", principal: bob, mode: "keyword" });
    expect(hits[0]).toMatchObject({ documentId: "oncall" });
    expect(hits[0]?.chunk).toContain("at nine");
    expect(await ids({ text: "escalation matrix", principal: bob, mode: "keyword" })).toEqual([]);
    const failed = await store.syncStatus("ops");
    expect(failed?.lastError).toMatch(/1 of 2 documents failed; "oncall": .*(413|larger than)/);
    expect(failed?.lastSuccessAt).toEqual(before?.lastSuccessAt);

    await store.upsertDocuments("ops", [v1]);
    const healed = await store.syncStatus("ops");
    expect(healed?.lastError).toBeUndefined();
    expect(healed?.lastSuccessAt?.getTime()).toBeGreaterThan(before?.lastSuccessAt?.getTime() ?? 0);
  });

  it("records a source that failed as a whole, and refuses a document nobody may read", async () => {
    await store.recordSyncError(
      "confluence-ops",
      new Error("Confluence answered 401: the token was refused"),
    );
    expect(await store.syncStatus("confluence-ops")).toMatchObject({
      lastError: "Confluence answered 401: the token was refused",
      documents: 0,
    });
    // PostgreSQL's text holds no NUL: a document carrying one is kept without it.
    const nul = await store.upsertDocuments("ops", [
      runbook("nul", "Stray\u0000 byte", "Copied from a PDF\u0000 viewer."),
    ]);
    expect(nul.added).toEqual(["nul"]);
    expect((await ids({ text: "copied pdf viewer", principal: bob, mode: "keyword" }))[0]).toBe("nul");
    const result = await store.upsertDocuments("ops", [
      { ...runbook("nobody", "Nobody", "text"), readers: {} },
    ]);
    expect(result.failed).toEqual([
      { id: "nobody", error: expect.stringContaining('names no reader: give it readers "everyone"') },
    ]);
  });

  it("refuses to open with another embeddings model than the one its vectors were made with", async () => {
    await expect(
      openKnowledgeStore({
        engine,
        embeddings: await embeddings(),
        embeddingsModel: "text-embedding-3-large",
      }),
    ).rejects.toThrow(/built with the embeddings model "text-embedding-3-small".*set EMBEDDINGS_MODEL back/);
    // The same model opens it again without asking the model anything.
    const calls = llm.embeddingCalls.length;
    const reopened = await openKnowledgeStore({
      engine,
      embeddings: await embeddings(),
      embeddingsModel: MODEL,
    });
    expect(reopened.dimensions).toBe(store.dimensions);
    expect(llm.embeddingCalls.length).toBe(calls);
  });
});
