import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MongoCheckpointSaver } from "../src/mongo-saver.js";
import { fixtureEnv, runFixtureTurn } from "./agent-process.js";

// Two agent processes from two packages, different graphs, one thread id: the core promise of
// per-agent persistence, exercised the way the fleet runs (separate processes, real MongoDB).
describe("two agents sharing a thread id", () => {
  const dbName = uniqueDbName("two_agents");
  let client: MongoClient;
  let db: Db;
  const env = () => fixtureEnv({ MONGODB_URI: testMongoUri(), LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName });

  beforeAll(async () => {
    client = await MongoClient.connect(testMongoUri());
    db = client.db(dbName);
  });
  afterAll(async () => {
    await db.dropDatabase();
    await client.close();
  });

  it("keeps each agent's checkpoints in its own collections and reloads each state intact", async () => {
    const thread = "conversation-42";
    const alpha1 = await runFixtureTurn("agent-alpha", [thread, "hello alpha"], env());
    const beta1 = await runFixtureTurn("supervisor-beta", [thread, "hello beta"], env());

    // Detected from each entry script's package: no AGENT_NAME, no npm_package_name.
    expect(alpha1.agent).toMatchObject({ agent: "alpha", collection: "checkpoints_alpha" });
    expect(beta1.agent).toMatchObject({
      agent: "supervisor-beta",
      collection: "checkpoints_supervisor-beta",
    });

    const alpha2 = await runFixtureTurn("agent-alpha", [thread, "again alpha"], env());
    const beta2 = await runFixtureTurn("supervisor-beta", [thread, "again beta"], env());
    expect(alpha2.state).toEqual({
      counter: 2,
      visits: ["hello alpha", "visit-1", "again alpha", "visit-2"],
    });
    expect(beta2.state).toEqual({
      notes: ["hello beta", "note 1", "again beta", "note 3"],
      lastSpeaker: "beta",
    });

    const names = (await db.listCollections().toArray()).map((c) => c.name).sort();
    expect(names).toEqual([
      "checkpoint_messages_alpha",
      "checkpoint_messages_supervisor-beta",
      "checkpoint_writes_alpha",
      "checkpoint_writes_supervisor-beta",
      "checkpoints_alpha",
      "checkpoints_supervisor-beta",
    ]);
    for (const [collection, own, foreign] of [
      ["alpha", "counter", "notes"],
      ["supervisor-beta", "notes", "counter"],
    ] as const) {
      const saver = new MongoCheckpointSaver({
        db,
        collections: {
          checkpoints: `checkpoints_${collection}`,
          writes: `checkpoint_writes_${collection}`,
          messages: `checkpoint_messages_${collection}`,
        },
      });
      const checkpoints = [];
      for await (const tuple of saver.list({ configurable: { thread_id: thread } })) checkpoints.push(tuple);
      expect(checkpoints.length).toBeGreaterThan(0);
      for (const { checkpoint } of checkpoints) {
        expect(Object.keys(checkpoint.channel_values)).not.toContain(foreign);
      }
      expect(Object.keys(checkpoints[0]?.checkpoint.channel_values ?? {})).toContain(own);
    }
  });

  it("continues a conversation after the agent process is killed with SIGKILL", async () => {
    const thread = "survives-sigkill";
    let child: import("node:child_process").ChildProcess | undefined;
    const first = await runFixtureTurn("agent-alpha", [thread, "before crash"], env(), {
      hold: true,
      onChild: (spawned) => {
        child = spawned;
      },
    });
    expect(first.state).toMatchObject({ counter: 1 });
    const exited = new Promise((resolve) => child?.once("close", resolve));
    child?.kill("SIGKILL");
    await exited;

    const second = await runFixtureTurn("agent-alpha", [thread, "after restart"], env());
    expect(second.state).toEqual({
      counter: 2,
      visits: ["before crash", "visit-1", "after restart", "visit-2"],
    });
  });
});
