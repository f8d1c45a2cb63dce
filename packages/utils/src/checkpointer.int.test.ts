import { Writable } from "node:stream";
import { HumanMessage } from "@langchain/core/messages";
import { emptyCheckpoint, MemorySaver } from "@langchain/langgraph-checkpoint";
import { createLogger } from "@switchboard/common";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type CheckpointerHandle,
  type CheckpointerOptions,
  closeCheckpointer,
  getCheckpointer,
  getCheckpointerDb,
  getCheckpointerInfo,
  openCheckpointer,
} from "./checkpointer.js";
import { MongoCheckpointSaver } from "./mongo-saver.js";

/** A logger whose lines the test can read. */
function capturedLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger({ level: "info", destination }), lines };
}

/** The test MongoDB's URI with `db` as its path database. */
function uriWithDb(db: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]*)(?:\/[^?]*)?(\?.*)?$/.exec(testMongoUri());
  if (!match) throw new Error(`Unexpected test MongoDB URI shape: ${testMongoUri()}`);
  return `${match[1]}/${db}${match[2] ?? ""}`;
}

describe("getCheckpointer", () => {
  let client: MongoClient;
  const dbs: string[] = [];
  const newDb = (prefix: string) => {
    const name = uniqueDbName(prefix);
    dbs.push(name);
    return name;
  };

  /** Checkpointers of the test's own (as the runtime opens each agent's), closed after each test. */
  const opened: CheckpointerHandle[] = [];
  const open = async (options: CheckpointerOptions) => {
    const handle = await openCheckpointer(options);
    opened.push(handle);
    return handle;
  };

  beforeAll(async () => {
    client = await MongoClient.connect(testMongoUri());
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((handle) => handle.close()));
    await closeCheckpointer();
    vi.unstubAllEnvs();
  });
  afterAll(async () => {
    // mongo-java-server cannot drop a database after a dropped TTL index; its data dies with it anyway.
    for (const name of dbs)
      await client
        .db(name)
        .dropDatabase()
        .catch(() => undefined);
    await client.close();
  });

  it("binds a MongoCheckpointSaver to the agent's own collections and creates their indexes", async () => {
    const dbName = newDb("own");
    const handle = await open({
      agentName: "jira",
      env: { MONGODB_URI: testMongoUri(), LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName },
    });
    expect(handle.saver).toBeInstanceOf(MongoCheckpointSaver);
    expect(handle.info).toMatchObject({
      agent: "jira",
      backend: "mongodb",
      dbName,
      collection: "checkpoints_jira",
      writesCollection: "checkpoint_writes_jira",
      messagesCollection: "checkpoint_messages_jira",
    });
    const messageIndexes = await client
      .db(dbName)
      .collection("checkpoint_messages_jira")
      .listIndexes()
      .toArray();
    expect(messageIndexes.find((index) => index.name === "thread_key_idx")).toMatchObject({
      key: { thread_id: 1, key: 1 },
      unique: true,
    });
    const checkpointIndexes = await client.db(dbName).collection("checkpoints_jira").listIndexes().toArray();
    const writesIndexes = await client
      .db(dbName)
      .collection("checkpoint_writes_jira")
      .listIndexes()
      .toArray();
    expect(checkpointIndexes.find((index) => index.name === "thread_ns_checkpoint_idx")?.key).toEqual({
      thread_id: 1,
      checkpoint_ns: 1,
      checkpoint_id: -1,
    });
    expect(writesIndexes.find((index) => index.name === "thread_ns_checkpoint_task_idx")?.key).toEqual({
      thread_id: 1,
      checkpoint_ns: 1,
      checkpoint_id: 1,
      task_id: 1,
      idx: 1,
    });
    expect(await handle.ping()).toBe(true);
  });

  it("is one saver per process until closed", async () => {
    const env = { MONGODB_URI: testMongoUri(), LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: newDb("single") };
    const [a, b] = await Promise.all([
      getCheckpointer({ agentName: "github", env }),
      getCheckpointer({ agentName: "github", env }),
    ]);
    expect(a).toBe(b);
    await closeCheckpointer();
    expect(await getCheckpointer({ agentName: "github", env })).not.toBe(a);
  });

  it("gives each agent in one process its own saver, on its own collections; none is anyone's default", async () => {
    const dbName = newDb("agents");
    const env = { MONGODB_URI: testMongoUri(), LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName };
    const jira = await getCheckpointer({ agentName: "jira", env });
    const github = await getCheckpointer({ agentName: "github", env });
    expect(github).not.toBe(jira);
    expect(await getCheckpointer({ agentName: "jira", env })).toBe(jira);
    expect(await getCheckpointerDb({ agentName: "jira", env })).toBe(
      await getCheckpointerDb({ agentName: "jira", env }),
    );
    expect(await getCheckpointerInfo({ agentName: "github", env })).toMatchObject({
      collection: "checkpoints_github",
    });
    // Callers without options get the process's own agent by process.env, never whichever was built first.
    vi.stubEnv("AGENT_NAME", "weather");
    vi.stubEnv("LANGGRAPH_CHECKPOINT_TYPE", "memory");
    expect(await getCheckpointerInfo()).toEqual({ agent: "weather", backend: "memory" });
    expect(await getCheckpointer()).not.toBe(jira);

    const config = { configurable: { thread_id: "shared-context", checkpoint_ns: "" } };
    for (const [saver, text] of [
      [jira, "to jira"],
      [github, "to github"],
    ] as const) {
      await saver.put(
        config,
        {
          ...emptyCheckpoint(),
          channel_values: { messages: [new HumanMessage(text)] },
          channel_versions: { messages: 1 },
        },
        { source: "input", step: -1, parents: {} },
        { messages: 1 },
      );
    }
    for (const agent of ["jira", "github"]) {
      const stored = await client
        .db(dbName)
        .collection(`checkpoints_${agent}`)
        .find({ thread_id: "shared-context" })
        .toArray();
      expect(stored).toHaveLength(1);
      const tuple = await (await getCheckpointer({ agentName: agent, env })).getTuple(config);
      expect((tuple?.checkpoint.channel_values.messages as HumanMessage[])?.map((m) => m.content)).toEqual([
        `to ${agent}`,
      ]);
    }

    // Closing one agent's leaves the other's open and still shared.
    await closeCheckpointer({ agentName: "github", env });
    expect(await getCheckpointer({ agentName: "jira", env })).toBe(jira);
    expect(await getCheckpointer({ agentName: "github", env })).not.toBe(github);
  });

  it("hands out an owned checkpointer that no other call shares", async () => {
    const env = { MONGODB_URI: testMongoUri(), LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: newDb("owned") };
    const shared = await getCheckpointer({ agentName: "aws", env });
    const owned = await openCheckpointer({ agentName: "aws", env });
    try {
      expect(owned.saver).not.toBe(shared);
      expect(owned.info).toMatchObject({ agent: "aws", collection: "checkpoints_aws" });
      expect(await owned.ping()).toBe(true);
    } finally {
      await owned.close();
    }
    expect(await owned.ping()).toBe(false);
    expect(await getCheckpointer({ agentName: "aws", env })).toBe(shared);
  });

  it("opens agents' checkpointers on a client their host shares, each on its own collections, and leaves it open", async () => {
    const dbName = newDb("shared-client");
    const env = { MONGODB_URI: testMongoUri(), LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName };
    const host = await MongoClient.connect(testMongoUri());
    try {
      const first = await openCheckpointer({ agentName: "first", env, client: host });
      const second = await openCheckpointer({ agentName: "second", env, client: host });
      const config = { configurable: { thread_id: "t-shared", checkpoint_ns: "" } };
      await first.saver.put(config, emptyCheckpoint(), { source: "input", step: -1, parents: {} }, {});
      expect(first.info).toMatchObject({ collection: "checkpoints_first", dbName });
      expect(second.info).toMatchObject({ collection: "checkpoints_second", dbName });
      expect(await second.saver.getTuple(config)).toBeUndefined();
      expect(await host.db(dbName).collection("checkpoints_first").countDocuments()).toBe(1);
      await first.close();
      // The host's client is still open for the other agent, and for the host.
      expect(await second.ping()).toBe(true);
      await second.close();
      expect(await host.db(dbName).command({ ping: 1 })).toMatchObject({ ok: 1 });
    } finally {
      await host.close();
    }
  });

  it("gives each owned checkpointer its own metrics, labelled by its agent", async () => {
    const env = { MONGODB_URI: testMongoUri(), LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: newDb("metrics") };
    const jira = await open({ agentName: "jira", env });
    const github = await open({ agentName: "github", env: { LANGGRAPH_CHECKPOINT_TYPE: "memory" } });
    const config = { configurable: { thread_id: "t-metrics", checkpoint_ns: "" } };
    await jira.saver.put(config, emptyCheckpoint(), { source: "input", step: -1, parents: {} }, {});
    await jira.saver.getTuple(config);
    await github.saver.getTuple(config);
    const counts = async (handle: CheckpointerHandle, metric: "readDuration" | "writeDuration") =>
      (await handle.metrics[metric].get()).values
        .filter((value) => value.metricName?.endsWith("_count"))
        .map(({ labels, value }) => ({ ...labels, value }));
    expect(await counts(jira, "writeDuration")).toEqual([
      { agent: "jira", operation: "put", backend: "mongodb", value: 1 },
    ]);
    expect(await counts(jira, "readDuration")).toEqual([
      { agent: "jira", operation: "getTuple", backend: "mongodb", value: 1 },
    ]);
    expect(await counts(github, "readDuration")).toEqual([
      { agent: "github", operation: "getTuple", backend: "memory", value: 1 },
    ]);
    expect(await counts(github, "writeDuration")).toEqual([]);
  });

  it("prefers LANGGRAPH_CHECKPOINT_MONGODB_URI over MONGODB_URI", async () => {
    const dbName = newDb("precedence");
    const handle = await open({
      agentName: "aws",
      env: {
        LANGGRAPH_CHECKPOINT_MONGODB_URI: testMongoUri(),
        MONGODB_URI: "mongodb://127.0.0.1:1/unreachable",
        LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName,
      },
    });
    expect(handle.info).toMatchObject({ backend: "mongodb", dbName });
  });

  it("takes the database from the URI path, and the DB_NAME setting over it", async () => {
    const fromPath = newDb("frompath");
    const handle = await open({ agentName: "aws", env: { MONGODB_URI: uriWithDb(fromPath) } });
    expect(handle.info).toMatchObject({ dbName: fromPath });

    const explicit = newDb("explicit");
    const named = await open({
      agentName: "aws",
      env: { MONGODB_URI: uriWithDb(fromPath), LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: explicit },
    });
    expect(named.info).toMatchObject({ dbName: explicit });
  });

  it("defaults the database to switchboard", async () => {
    if (process.env.MONGODB_URI) return; // a shared real server's default database is not ours to touch
    const handle = await open({ agentName: "defaultdb", env: { MONGODB_URI: testMongoUri() } });
    expect(handle.info).toMatchObject({ dbName: "switchboard" });
    await client.db("switchboard").dropDatabase();
  });

  it("uses explicit collection names when both are set, and refuses just one", async () => {
    const dbName = newDb("explicitcoll");
    const env = {
      ...testMongoEnv(dbName),
      LANGGRAPH_CHECKPOINT_MONGODB_COLLECTION: "legacy_checkpoints",
      LANGGRAPH_CHECKPOINT_MONGODB_WRITES_COLLECTION: "legacy_writes",
    };
    expect((await open({ agentName: "jira", env })).info).toMatchObject({
      collection: "legacy_checkpoints",
      writesCollection: "legacy_writes",
    });

    const { LANGGRAPH_CHECKPOINT_MONGODB_WRITES_COLLECTION: _, ...onlyOne } = env;
    await expect(getCheckpointer({ agentName: "jira", env: onlyOne })).rejects.toThrow(
      /Set both LANGGRAPH_CHECKPOINT_MONGODB_COLLECTION and LANGGRAPH_CHECKPOINT_MONGODB_WRITES_COLLECTION/,
    );
  });

  it("turns LANGGRAPH_CHECKPOINT_TTL_MINUTES into whole-conversation expiry, and follows changes", async () => {
    const dbName = newDb("ttl");
    const env = { MONGODB_URI: testMongoUri(), LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName };
    const collections = ["checkpoints_jira", "checkpoint_writes_jira", "checkpoint_messages_jira"];
    const ttlIndexes = async (collection: string) => {
      const indexes = await client.db(dbName).collection(collection).listIndexes().toArray();
      return indexes.filter((index) => index.expireAfterSeconds !== undefined).map((index) => index.key);
    };
    // Upstream MongoDBSaver's per-document TTL index would expire old messages of live conversations.
    await client
      .db(dbName)
      .collection("checkpoints_jira")
      .createIndex({ upserted_at: 1 }, { expireAfterSeconds: 60 });

    const saver = await getCheckpointer({
      agentName: "jira",
      env: { ...env, LANGGRAPH_CHECKPOINT_TTL_MINUTES: "90" },
    });
    for (const collection of collections) expect(await ttlIndexes(collection)).toEqual([{ expire_at: 1 }]);
    const config = await saver.put(
      { configurable: { thread_id: "t-ttl", checkpoint_ns: "" } },
      {
        ...emptyCheckpoint(),
        channel_values: { messages: [new HumanMessage({ id: "m1", content: "hi" })] },
        channel_versions: { messages: 1 },
      },
      { source: "input", step: -1, parents: {} },
      { messages: 1 },
    );
    await saver.putWrites(config, [["messages", new HumanMessage({ id: "m2", content: "more" })]], "task-1");
    for (const collection of collections) {
      const doc = await client.db(dbName).collection(collection).findOne({ thread_id: "t-ttl" });
      const minutes = ((doc?.expire_at as Date | undefined)?.getTime() ?? 0) / 60_000 - Date.now() / 60_000;
      // 90 minutes after the last activity, plus the slack that lets refreshes be rare.
      expect(minutes).toBeGreaterThan(90);
      expect(minutes).toBeLessThanOrEqual(135);
    }
    await closeCheckpointer();

    await getCheckpointer({ agentName: "jira", env: { ...env, LANGGRAPH_CHECKPOINT_TTL_MINUTES: "0" } });
    for (const collection of collections) expect(await ttlIndexes(collection)).toEqual([]);
  });

  it("fails fast, naming the host and the setting, when MongoDB is unreachable; never falls back", async () => {
    const started = Date.now();
    const attempt = getCheckpointer({
      agentName: "jira",
      env: {
        LANGGRAPH_CHECKPOINT_TYPE: "mongodb",
        LANGGRAPH_CHECKPOINT_MONGODB_URI: "mongodb://admin:s3cr%2Ft@127.0.0.1:9/db",
        LANGGRAPH_CHECKPOINT_MONGODB_TIMEOUT_MS: "500",
      },
    });
    await expect(attempt).rejects.toThrow(/127\.0\.0\.1:9/);
    const error = (await attempt.catch((e: unknown) => e)) as Error;
    expect(error.message).toContain("LANGGRAPH_CHECKPOINT_MONGODB_URI");
    expect(error.message).toContain("mongodb://admin:****@127.0.0.1:9/db");
    expect(error.message).not.toContain("s3cr");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("refuses LANGGRAPH_CHECKPOINT_TYPE=mongodb without a URI, and an unknown type", async () => {
    await expect(
      getCheckpointer({ agentName: "jira", env: { LANGGRAPH_CHECKPOINT_TYPE: "mongodb" } }),
    ).rejects.toThrow(/needs a MongoDB URI: set LANGGRAPH_CHECKPOINT_MONGODB_URI or MONGODB_URI/);
    await expect(
      getCheckpointer({ agentName: "jira", env: { LANGGRAPH_CHECKPOINT_TYPE: "redis" } }),
    ).rejects.toThrow(/LANGGRAPH_CHECKPOINT_TYPE/);
  });

  it("uses memory with one warning line when no URI is configured", async () => {
    const { logger, lines } = capturedLogger();
    const saver = await getCheckpointer({ agentName: "jira", env: {}, logger });
    expect(saver).toBeInstanceOf(MemorySaver);
    await getCheckpointer({ agentName: "jira", env: {}, logger });
    const warnings = lines.filter((line) => line.level === "warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/in-memory checkpointer, so conversations will not survive a restart/);
  });

  it("uses memory when LANGGRAPH_CHECKPOINT_TYPE=memory even with a URI set", async () => {
    const saver = await getCheckpointer({
      agentName: "jira",
      env: { LANGGRAPH_CHECKPOINT_TYPE: "memory", MONGODB_URI: testMongoUri() },
    });
    expect(saver).toBeInstanceOf(MemorySaver);
  });

  it("treats empty values in env files as unset", async () => {
    const saver = await getCheckpointer({
      agentName: "jira",
      env: { LANGGRAPH_CHECKPOINT_TYPE: "", MONGODB_URI: "", LANGGRAPH_CHECKPOINT_TTL_MINUTES: "" },
    });
    expect(saver).toBeInstanceOf(MemorySaver);
  });
});
