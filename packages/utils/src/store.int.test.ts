import { Writable } from "node:stream";
import { createLogger } from "@switchboard/common";
import { describeOnDocumentDb, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "./store.js";

const silent = createLogger({ level: "silent" });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("openStore: the agent's long-term store on the checkpointer's env contract", () => {
  const dbName = uniqueDbName("store");
  let mongo: MongoClient;
  beforeAll(async () => {
    mongo = await MongoClient.connect(testMongoUri());
  });
  afterAll(async () => {
    await mongo?.db(dbName).dropDatabase();
    await mongo?.close();
  });

  it("keeps items in store_<agent>, indexed at start-up, with a revision that moves on every change", async () => {
    const env = { MONGODB_URI: testMongoUri(), LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName };
    const handle = await openStore({ env, agentName: "jira", logger: silent });
    try {
      expect(handle.info).toMatchObject({
        backend: "mongodb",
        collection: "store_jira",
        dbName,
        ttlMinutes: 10_080,
      });
      const indexes = await mongo.db(dbName).collection("store_jira").listIndexes().toArray();
      expect(indexes.map((index) => index.key)).toEqual(
        expect.arrayContaining([
          { namespaceStr: 1, key: 1 },
          { expiresAt: 1 },
          { "namespace.0": 1, "namespace.1": 1 },
          { namespaceStr: 1, updatedAt: -1 },
        ]),
      );
      const store = handle.store;
      if (!store || !handle.revision) throw new Error("expected a MongoDB store");
      const namespace = ["memories", "abc"];
      const empty = await handle.revision(namespace);
      await store.put(namespace, "k1", { text: "one" });
      const one = await handle.revision(namespace);
      expect(one).not.toBe(empty);
      await sleep(5);
      await store.put(namespace, "k1", { text: "one, again" });
      const rewritten = await handle.revision(namespace);
      expect(rewritten).not.toBe(one);
      await store.delete(namespace, "k1");
      expect(await handle.revision(namespace)).not.toBe(rewritten);
      // Another user's items never move this user's revision.
      const before = await handle.revision(namespace);
      await store.put(["memories", "other"], "k1", { text: "theirs" });
      expect(await handle.revision(namespace)).toBe(before);
    } finally {
      await handle.close();
    }
  });

  it("falls back to memory with a warning when no MongoDB URI is set, and builds none when asked", async () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: "warn",
      destination: new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    });
    const memory = await openStore({ env: {}, agentName: "jira", logger });
    expect(memory.info).toEqual({ agent: "jira", backend: "memory", ttlMinutes: 10_080 });
    expect(lines.join("")).toContain("using the in-memory store");
    const none = await openStore({
      env: { LANGGRAPH_STORE_TYPE: "none" },
      agentName: "jira",
      logger: silent,
    });
    expect(none.store).toBeUndefined();
    // CAIPE's minutes win over the days; days alone are read.
    expect(
      (await openStore({ env: { MEMORY_TTL_DAYS: "2" }, agentName: "jira", logger: silent })).info,
    ).toMatchObject({
      ttlMinutes: 2_880,
    });
    expect(
      (
        await openStore({
          env: { MEMORY_TTL_DAYS: "2", LANGGRAPH_STORE_TTL_MINUTES: "60" },
          agentName: "jira",
          logger: silent,
        })
      ).info,
    ).toMatchObject({ ttlMinutes: 60 });
  });
});

// mongo-java-server never expires TTL documents: expiry for real runs on DocumentDB, whose TTL job
// deletes expired documents about once a minute.
describeOnDocumentDb("long-term store expiry on DocumentDB (real TTL)", (uri) => {
  const dbName = uniqueDbName("store_ttl");
  afterAll(async () => {
    const client = await MongoClient.connect(uri());
    await client
      .db(dbName)
      .dropDatabase()
      .catch(() => undefined);
    await client.close();
  });

  it("forgets an item left unused for LANGGRAPH_STORE_TTL_MINUTES and keeps one in use", async () => {
    const env = {
      MONGODB_URI: uri(),
      LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName,
      LANGGRAPH_STORE_TTL_MINUTES: "0.25",
    };
    const handle = await openStore({ env, agentName: "ttl", logger: silent });
    const store = handle.store;
    if (!store) throw new Error("expected a store");
    try {
      const namespace = ["memories", "abc"];
      await store.put(namespace, "unused", { text: "left alone" });
      await store.put(namespace, "used", { text: "recalled every turn" });
      const deadline = Date.now() + 150_000;
      while ((await store.get(namespace, "unused")) && Date.now() < deadline) {
        // Each use rewrites the item, which pushes its expiry back (as recall does).
        await store.put(namespace, "used", { text: "recalled every turn" });
        await sleep(2_000);
      }
      expect(await store.get(namespace, "unused")).toBeNull();
      expect((await store.get(namespace, "used"))?.value).toEqual({ text: "recalled every turn" });
    } finally {
      await handle.close();
    }
  }, 180_000);
});
