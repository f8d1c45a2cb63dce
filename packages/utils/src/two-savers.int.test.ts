import { HumanMessage } from "@langchain/core/messages";
import { emptyCheckpoint, uuid6 } from "@langchain/langgraph-checkpoint";
import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MongoCheckpointSaver } from "./mongo-saver.js";
import { agentCollections } from "./saver/documents.js";

// Two savers in one process (two agents, or two option sets) that are handed the same objects:
// what one stored must never turn into a reference in the other's documents.
describe("two savers in one process", () => {
  const dbName = uniqueDbName("two_savers");
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    client = await MongoClient.connect(testMongoUri());
    db = client.db(dbName);
  });
  afterAll(async () => {
    await db.dropDatabase();
    await client.close();
  });

  const saverFor = (agent: string) => new MongoCheckpointSaver({ db, collections: agentCollections(agent) });
  const checkpointWith = (messages: unknown[]) => ({
    ...emptyCheckpoint(),
    id: uuid6(-1),
    channel_values: { messages },
    channel_versions: { messages: 1 },
  });
  const metadata = { source: "input" as const, step: -1, parents: {} };

  it("store the same message and list objects fully in each one's collections", async () => {
    const thread = "shared-conversation";
    const message = new HumanMessage({ id: "m1", content: "the same message object" });
    const list = [message];
    const [alpha, beta] = [saverFor("alpha"), saverFor("beta")];
    await Promise.all([alpha.setup(), beta.setup()]);

    const alphaConfig = await alpha.put(
      { configurable: { thread_id: thread, checkpoint_ns: "" } },
      checkpointWith(list),
      metadata,
      { messages: 1 },
    );
    const betaConfig = await beta.put(
      { configurable: { thread_id: thread, checkpoint_ns: "" } },
      checkpointWith(list),
      metadata,
      { messages: 1 },
    );
    await alpha.putWrites(alphaConfig, [["messages", list]], "task-a");
    await beta.putWrites(betaConfig, [["messages", list]], "task-b");

    for (const agent of ["alpha", "beta"]) {
      const names = agentCollections(agent);
      const bodies = await db.collection(names.messages).find({ thread_id: thread }).toArray();
      expect(bodies.map((doc) => doc.key)).toEqual([expect.stringMatching(/^m1:/)]);
      // A fresh saver (another replica) reads it back from this agent's collections alone.
      const tuple = await saverFor(agent).getTuple({ configurable: { thread_id: thread } });
      const messages = tuple?.checkpoint.channel_values.messages as HumanMessage[];
      expect(messages.map((m) => m.content)).toEqual(["the same message object"]);
      const [, channel, written] = tuple?.pendingWrites?.[0] ?? [];
      expect(channel).toBe("messages");
      expect((written as HumanMessage[]).map((m) => m.content)).toEqual(["the same message object"]);
    }

    // And each saver itself, warm, reads its own.
    for (const saver of [alpha, beta]) {
      const tuple = await saver.getTuple({ configurable: { thread_id: thread } });
      const messages = tuple?.checkpoint.channel_values.messages as HumanMessage[] | undefined;
      expect(messages?.map((m) => m.content)).toEqual(["the same message object"]);
    }
  });
});
