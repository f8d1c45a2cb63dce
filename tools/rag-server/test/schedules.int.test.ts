import { PassThrough } from "node:stream";
import { createEmbeddings, readEmbeddingsSettings } from "@switchboard/agent-runtime/embeddings";
import { createLogger } from "@switchboard/common";
import {
  type Engine,
  type KnowledgeStore,
  openKnowledgeStore,
  postgresEngine,
  type SourceDefinition,
} from "@switchboard/knowledge";
import { type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { startPostgres, type TestPostgres } from "@switchboard-testing/test-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SyncLeases } from "../src/sync-lease.js";
import { Syncer } from "../src/syncer.js";

// Two replicas of the RAG server's syncing on one PostgreSQL (with pgvector, as the engine runs):
// each its own connection pool, store, leases and syncer, as two pods would have.

const MODEL = "text-embedding-3-small";

interface Replica {
  engine: Engine;
  store: KnowledgeStore;
  leases: SyncLeases;
  syncer: Syncer;
  /** The slots this replica's syncs started for. */
  slots: string[];
}

describe("syncing sources across two replicas", () => {
  let llm: ScriptedLlm;
  let postgres: TestPostgres;
  const replicas: Replica[] = [];

  const replica = async (): Promise<Replica> => {
    const env = { EMBEDDINGS_PROVIDER: "openai", EMBEDDINGS_MODEL: MODEL, ...llm.env };
    const settings = readEmbeddingsSettings(env);
    if (!settings) throw new Error("no embeddings settings");
    const engine = postgresEngine(postgres.dsn);
    const store = await openKnowledgeStore({
      engine,
      embeddings: await createEmbeddings(settings, env),
      embeddingsModel: MODEL,
    });
    const leases = await SyncLeases.open(engine, 60_000);
    const slots: string[] = [];
    // What the replica logs: each sync it started, with the schedule's slot.
    const lines = new PassThrough();
    let rest = "";
    lines.on("data", (chunk: Buffer) => {
      const whole = (rest + chunk.toString()).split("\n");
      rest = whole.pop() ?? "";
      for (const line of whole.filter(Boolean)) {
        const entry = JSON.parse(line) as { msg?: string; slot?: string };
        if (entry.msg === "Sync started" && entry.slot) slots.push(entry.slot);
      }
    });
    const logger = createLogger({ level: "info", destination: lines });
    return { engine, store, leases, syncer: new Syncer({ store, leases, env, logger }), slots };
  };

  beforeAll(async () => {
    [llm, postgres] = await Promise.all([
      startScriptedLlm({ script: () => say("unused") }),
      startPostgres({ pgvector: true }),
    ]);
    // One after the other: the second opens what the first made.
    replicas.push(await replica(), await replica());
  });
  afterAll(async () => {
    for (const { syncer, store } of replicas) {
      await syncer.stop();
      await store.close();
    }
    await postgres?.stop();
    await llm?.close();
  });

  it("lets one replica at a time hold a source, and another take over one whose holder stopped renewing", async () => {
    const [a, b] = replicas as [Replica, Replica];
    // Both ask at once, many times: exactly one gets it.
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).leases.claim("contended")),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);

    expect(await a.leases.claim("runbooks")).toBe(true);
    expect(await b.leases.claim("runbooks")).toBe(false);
    expect(await a.leases.renew("runbooks")).toBe(true);
    // a dies mid-sync: its lease's time passes with no renewal.
    await a.engine.query(
      `UPDATE knowledge_sync_leases SET expires_at = now() - interval '1 second' WHERE source_id = 'runbooks'`,
    );
    expect(await b.leases.claim("runbooks")).toBe(true);
    // a, back, learns it lost the source: its sync stops.
    expect(await a.leases.renew("runbooks")).toBe(false);
    await b.leases.release("runbooks");
    expect(await a.leases.claim("runbooks")).toBe(true);
    await a.leases.release("runbooks");
  });

  it("runs each tick of a schedule once, on one of the replicas that both arm it", async () => {
    const source = {
      id: "every-second",
      type: "upload",
      readers: "everyone",
      schedule: "* * * * * *",
    } as SourceDefinition;
    for (const { syncer } of replicas) syncer.start([source]);
    const all = () => replicas.flatMap(({ slots }) => slots);
    await expect.poll(() => all().length, { timeout: 10_000, interval: 100 }).toBeGreaterThanOrEqual(2);
    for (const { syncer } of replicas) await syncer.stop();
    expect(new Set(all()).size).toBe(all().length);
    // Each sync was recorded, as the list shows it.
    const [status] =
      (await replicas[0]?.store.syncStatus().then((list) => list.filter((s) => s.sourceId === source.id))) ??
      [];
    expect(status?.running).toBe(false);
    expect(status?.lastSyncAt).toBeInstanceOf(Date);
  });
});
