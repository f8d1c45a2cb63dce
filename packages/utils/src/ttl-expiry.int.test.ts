import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { type BaseCheckpointSaver, END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { describeOnDocumentDb, uniqueDbName } from "@switchboard-testing/test-mongo";
import { type Db, MongoClient, type ObjectId } from "mongodb";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MongoCheckpointSaver } from "./mongo-saver.js";
import { agentCollections } from "./saver/documents.js";

// Retention for real: mongo-java-server never expires TTL documents, so this runs on DocumentDB,
// whose TTL job deletes expired documents about once a minute. A conversation expires as a whole
// (checkpoints, writes and messages) a TTL after its last write; one still in use keeps all of it.

/** Short enough to expire within the test, long enough that a slow keep-alive turn is never late. */
const TTL_SECONDS = 15;
/** DocumentDB's TTL job runs about once a minute; expiry comes at 1.5 TTL after the last write. */
const WAIT_BOUND_MS = 150_000;
const KEEP_ALIVE_EVERY_MS = 2_000;

/** An agent's graph in miniature: each turn the user's message and the model's answer. */
function chatGraph(saver: BaseCheckpointSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode("model", (state) => {
      const last = state.messages.at(-1);
      return { messages: [new AIMessage(`answer to ${String(last?.content)}`)] };
    })
    .addEdge(START, "model")
    .addEdge("model", END)
    .compile({ checkpointer: saver });
}

const config = (threadId: string) => ({ configurable: { thread_id: threadId }, durability: "sync" as const });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeOnDocumentDb("conversation retention on DocumentDB (real TTL expiry)", (uri) => {
  let client: MongoClient;
  let db: Db;
  const collections = agentCollections("ttl");
  const names = Object.values(collections);

  /** Each collection's documents of a conversation: their ids and expiry times. */
  async function documentsOf(threadId: string) {
    const found = new Map<string, Array<{ _id: ObjectId; expire_at?: Date }>>();
    for (const name of names) {
      const docs = await db
        .collection<{ thread_id: string; expire_at?: Date }>(name)
        .find({ thread_id: threadId }, { projection: { _id: 1, expire_at: 1 } })
        .toArray();
      found.set(name, docs);
    }
    return found;
  }

  beforeAll(async () => {
    client = await MongoClient.connect(uri());
    db = client.db(uniqueDbName("ttl"));
  });
  afterAll(async () => {
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });

  it(
    "deletes an idle conversation from all three collections; a live one keeps every document",
    async () => {
      const saver = new MongoCheckpointSaver({ db, collections, ttlSeconds: TTL_SECONDS });
      await saver.setup();
      const graph = chatGraph(saver);
      let liveTurns = 0;
      const liveTurn = () =>
        graph.invoke({ messages: [new HumanMessage(`live ${++liveTurns}`)] }, config("live"));
      // The live conversation starts first, so without its refreshes it would expire first.
      for (let turn = 0; turn < 3; turn++) await liveTurn();
      for (let turn = 1; turn <= 3; turn++) {
        await graph.invoke({ messages: [new HumanMessage(`idle ${turn}`)] }, config("idle"));
      }

      const idle = await documentsOf("idle");
      const live = await documentsOf("live");
      for (const name of names) {
        expect(idle.get(name)?.length, `idle documents in ${name}`).toBeGreaterThan(0);
        expect(live.get(name)?.length, `live documents in ${name}`).toBeGreaterThan(0);
      }
      const expiries = (docs: typeof idle) =>
        [...docs.values()].flat().map((doc) => doc.expire_at?.getTime() ?? Number.POSITIVE_INFINITY);
      const idleExpiry = Math.max(...expiries(idle));
      // Every live document was due no later than the idle conversation's last one.
      expect(Math.max(...expiries(live))).toBeLessThanOrEqual(idleExpiry);

      // Keep using the live conversation until DocumentDB's TTL job has removed the idle one.
      const started = Date.now();
      let left = Number.POSITIVE_INFINITY;
      while (Date.now() - started < WAIT_BOUND_MS) {
        await liveTurn();
        left = [...(await documentsOf("idle")).values()].reduce((sum, docs) => sum + docs.length, 0);
        if (left === 0) break;
        await sleep(KEEP_ALIVE_EVERY_MS);
      }
      const waited = Date.now() - started;
      expect(
        left,
        `idle documents left ${Math.round(waited / 1000)} s into the wait, ` +
          `${Math.round((Date.now() - idleExpiry) / 1000)} s after they expired`,
      ).toBe(0);
      // Only the TTL job deletes here, and only documents past their expiry: so it ran after every
      // live document written before the wait was due, had the live turns not pushed them forward.

      // A saver that never saw either conversation (another replica, a restart).
      const fresh = new MongoCheckpointSaver({ db, collections, ttlSeconds: TTL_SECONDS });
      expect(await fresh.getTuple({ configurable: { thread_id: "idle" } })).toBeUndefined();
      const now = await documentsOf("live");
      for (const name of names) {
        const kept = new Set(now.get(name)?.map((doc) => doc._id.toHexString()));
        const lost = (live.get(name) ?? []).filter((doc) => !kept.has(doc._id.toHexString()));
        expect(lost, `live documents of the first turns deleted from ${name}`).toEqual([]);
      }
      const tuple = await fresh.getTuple({ configurable: { thread_id: "live" } });
      const messages = tuple?.checkpoint.channel_values.messages as BaseMessage[] | undefined;
      expect(messages?.map((message) => message.content)).toEqual(
        Array.from({ length: liveTurns }, (_, i) => [`live ${i + 1}`, `answer to live ${i + 1}`]).flat(),
      );
    },
    WAIT_BOUND_MS + 60_000,
  );
});
