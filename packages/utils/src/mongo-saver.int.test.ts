import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  HumanMessage,
  RemoveMessage,
  ToolMessage,
} from "@langchain/core/messages";
import {
  type BaseCheckpointSaver,
  END,
  emptyCheckpoint,
  MessagesAnnotation,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { MongoDBSaver } from "@langchain/langgraph-checkpoint-mongodb";
import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { BSON, type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MongoCheckpointSaver } from "./mongo-saver.js";
import { agentCollections } from "./saver/documents.js";

/** A chat graph shaped like an agent's: each turn a tool call, its ~2 kB result, and an answer. */
function chatGraph(saver: BaseCheckpointSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode("model", (state) => {
      const turn = state.messages.filter((message) => message.getType() === "human").length;
      const last = state.messages.at(-1);
      if (last?.getType() === "tool")
        return { messages: [new AIMessage(`answer ${turn}: ${last.content}`.slice(0, 300))] };
      return {
        messages: [
          new AIMessage({
            content: "",
            tool_calls: [{ id: `call-${turn}`, name: "search", args: { turn } }],
          }),
        ],
      };
    })
    .addNode("tools", (state) => {
      const call = (state.messages.at(-1) as AIMessage).tool_calls?.[0];
      const turn = Number(call?.args.turn);
      const rows = Array.from(
        { length: 20 },
        (_, i) => `PLAT-${i} open issue ${turn}: ${summary(turn * 20 + i)}`,
      );
      return { messages: [new ToolMessage({ tool_call_id: call?.id ?? "", content: rows.join("\n") })] };
    })
    .addEdge(START, "model")
    .addConditionalEdges("model", (state) =>
      (state.messages.at(-1) as AIMessage).tool_calls?.length ? "tools" : END,
    )
    .addEdge("tools", "model")
    .compile({ checkpointer: saver });
}

const WORDS =
  "deploy rollback certificate expires cluster latency alert pager database migration index quota token rotate ingress canary budget flaky pipeline runner".split(
    " ",
  );

/** A Jira-like issue summary: varied words, so stored text compresses as real results do. */
function summary(seed: number): string {
  let x = seed * 2654435761;
  return Array.from({ length: 12 }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return WORDS[x % WORDS.length];
  }).join(" ");
}

const texts = (messages: BaseMessage[]) =>
  messages.map((message) => `${message.getType()}:${message.content}`);

describe("MongoCheckpointSaver on an agent's conversation", () => {
  let client: MongoClient;
  let db: Db;
  const saverOn = (agent: string) => new MongoCheckpointSaver({ db, collections: agentCollections(agent) });
  const storedBytes = async (agent: string) => {
    let total = 0;
    for (const name of Object.values(agentCollections(agent))) {
      for (const doc of await db.collection(name).find().toArray()) total += BSON.calculateObjectSize(doc);
    }
    return total;
  };

  beforeAll(async () => {
    client = await MongoClient.connect(testMongoUri());
    db = client.db(uniqueDbName("saver"));
  });
  afterAll(async () => {
    await db.dropDatabase();
    await client.close();
  });

  it("stores a 500-turn conversation in under 3x its state; a cold reader reloads every 25th turn intact", async () => {
    const saver = saverOn("long");
    await saver.setup();
    const graph = chatGraph(saver);
    const config = { configurable: { thread_id: "long-talk" }, durability: "sync" as const };
    const turns = 500;
    for (let turn = 1; turn <= turns; turn++) {
      await graph.invoke({ messages: [new HumanMessage(`search turn ${turn}`)] }, config);
    }
    const live = (await graph.getState(config)).values.messages as BaseMessage[];
    expect(live).toHaveLength(turns * 4);

    const [, stateBytes] = await saver.serde.dumpsTyped({ messages: live });
    const ratio = (await storedBytes("long")) / stateBytes.byteLength;
    expect(ratio).toBeLessThan(3);

    // A process that has seen none of it (another replica, or after a restart) reads the turns
    // back: every 25th turn's last checkpoint holds exactly the messages up to that turn.
    const ids = (
      await db
        .collection(agentCollections("long").checkpoints)
        .find({ thread_id: "long-talk" }, { projection: { checkpoint_id: 1 }, sort: { checkpoint_id: 1 } })
        .toArray()
    ).map((doc) => String(doc.checkpoint_id));
    const reader = saverOn("long");
    let checked = 0;
    for (const checkpoint_id of ids.filter((_, i) => i % 100 === 0)) {
      const tuple = await reader.getTuple({ configurable: { thread_id: "long-talk", checkpoint_id } });
      const messages = (tuple?.checkpoint.channel_values.messages ?? []) as BaseMessage[];
      expect(texts(messages)).toEqual(texts(live.slice(0, messages.length)));
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(turns / 25);
    const latest = await saverOn("long").getTuple({ configurable: { thread_id: "long-talk" } });
    expect(texts(latest?.checkpoint.channel_values.messages as BaseMessage[])).toEqual(texts(live));
  }, 600_000);

  it("loads conversations stored by upstream MongoDBSaver, and continues them", async () => {
    const names = agentCollections("upgraded");
    const upstream = new MongoDBSaver({
      client,
      dbName: db.databaseName,
      checkpointCollectionName: names.checkpoints,
      checkpointWritesCollectionName: names.writes,
    });
    const config = { configurable: { thread_id: "from-before" } };
    for (const turn of [1, 2]) {
      await chatGraph(upstream).invoke({ messages: [new HumanMessage(`before upgrade ${turn}`)] }, config);
    }
    const before = (await chatGraph(upstream).getState(config)).values.messages as BaseMessage[];

    const graph = chatGraph(saverOn("upgraded"));
    expect(texts((await graph.getState(config)).values.messages)).toEqual(texts(before));
    await graph.invoke({ messages: [new HumanMessage("after upgrade")] }, config);
    const after = (await chatGraph(saverOn("upgraded")).getState(config)).values.messages as BaseMessage[];
    expect(texts(after.slice(0, before.length))).toEqual(texts(before));
    expect(texts(after.slice(before.length))).toEqual([
      "human:after upgrade",
      "ai:",
      expect.stringMatching(/^tool:PLAT-0 open issue 3/),
      expect.stringMatching(/^ai:answer 3: PLAT-0/),
    ]);
  });

  it("keeps removals and same-id replacements exactly as LangGraph applied them", async () => {
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("edit", (state) => {
        const [first, second] = state.messages;
        const last = state.messages.at(-1);
        if (last?.content !== "edit") {
          return { messages: [new AIMessage({ id: `a${state.messages.length}`, content: "reply" })] };
        }
        return {
          messages: [
            new RemoveMessage({ id: String(first?.id) }),
            new HumanMessage({ id: String(second?.id), content: "edited" }),
            new RemoveMessage({ id: String(last.id) }),
          ],
        };
      })
      .addEdge(START, "edit")
      .addEdge("edit", END)
      .compile({ checkpointer: saverOn("edits") });
    const config = { configurable: { thread_id: "edits" } };
    await graph.invoke({ messages: [new HumanMessage({ id: "h1", content: "one" })] }, config);
    await graph.invoke({ messages: [new HumanMessage({ id: "h2", content: "two" })] }, config);
    await graph.invoke({ messages: [new HumanMessage({ id: "e", content: "edit" })] }, config);
    const live = (await graph.getState(config)).values.messages as BaseMessage[];
    expect(live.map((message) => [message.id, message.content])).toEqual([
      ["a1", "edited"],
      ["h2", "two"],
      ["a3", "reply"],
    ]);

    const reloaded = await saverOn("edits").getTuple(config);
    const messages = reloaded?.checkpoint.channel_values.messages as BaseMessage[];
    expect(messages.map((message) => [message.id, message.content])).toEqual([
      ["a1", "edited"],
      ["h2", "two"],
      ["a3", "reply"],
    ]);
  });

  it("keeps a channel that holds undefined apart from one that was emptied", async () => {
    const saver = saverOn("values");
    const config = await saver.put(
      { configurable: { thread_id: "undefined-values", checkpoint_ns: "" } },
      {
        ...emptyCheckpoint(),
        channel_values: { jumpTo: undefined, step: 1 },
        channel_versions: { jumpTo: 1, step: 1, gone: 1 },
      },
      { source: "loop", step: 0, parents: {} },
      { jumpTo: 1, step: 1, gone: 1 },
    );
    const tuple = await saverOn("values").getTuple(config);
    expect(tuple?.checkpoint.channel_values).toEqual({ jumpTo: undefined, step: 1 });
    expect(Object.keys(tuple?.checkpoint.channel_values ?? {}).sort()).toEqual(["jumpTo", "step"]);
  });

  it("reads a checkpoint back whole when its step's writes document never landed", async () => {
    const saver = saverOn("beside");
    // The model step's writes document cannot be stored (its task's document is there already).
    const writes = db.collection(agentCollections("beside").writes);
    await writes.createIndex({ task_id: 1 }, { unique: true, name: "one_per_task" });
    await writes.insertOne({ task_id: "model-task" });
    const thread = { configurable: { thread_id: "beside", checkpoint_ns: "" } };
    const question = new HumanMessage({ id: "question", content: "Is PLAT-1 open?" });
    const answer = new AIMessage({ id: "answer", content: "PLAT-1 is open." });
    const first = await saver.put(
      thread,
      { ...emptyCheckpoint(), channel_values: { messages: [question] }, channel_versions: { messages: 1 } },
      { source: "input", step: -1, parents: {} },
      { messages: 1 },
    );
    // As LangGraph's loop issues them: the step's writes, then at once the checkpoint after it.
    const stepWrites = saver.putWrites(first, [["messages", [answer]]], "model-task");
    const next = saver.put(
      first,
      {
        ...emptyCheckpoint(),
        channel_values: { messages: [question, answer] },
        channel_versions: { messages: 2 },
      },
      { source: "loop", step: 0, parents: {} },
      { messages: 2 },
    );
    await expect(stepWrites).rejects.toThrow(/duplicate key/i);
    const stored = await next;
    // A cold reader (a restarted replica) takes up the conversation from that checkpoint, whole.
    const tuple = await saverOn("beside").getTuple(thread);
    expect(tuple?.config.configurable?.checkpoint_id).toBe(stored.configurable?.checkpoint_id);
    const messages = tuple?.checkpoint.channel_values.messages as BaseMessage[];
    expect(messages.map((message) => message.content)).toEqual(["Is PLAT-1 open?", "PLAT-1 is open."]);
    expect(tuple?.pendingWrites).toEqual([]);
  });

  it("stores a streamed model reply once: the chunk LangGraph wrote and the message its reducer kept", async () => {
    // A model node that streams returns an AIMessageChunk; the messages channel keeps its plain
    // AIMessage copy. Both are read back as written, from one stored body.
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("model", (state) => ({
        messages: [
          new AIMessageChunk({
            id: `reply-${state.messages.length}`,
            content: `streamed answer to ${state.messages.at(-1)?.content}`,
            tool_call_chunks: [{ name: "search", args: '{"q":1}', id: "call-1", index: 0 }],
          }),
        ],
      }))
      .addEdge(START, "model")
      .addEdge("model", END)
      .compile({ checkpointer: saverOn("chunks") });
    const config = { configurable: { thread_id: "chunks" } };
    for (const text of ["one", "two", "three"]) {
      await graph.invoke({ messages: [new HumanMessage(text)] }, config);
    }
    const live = (await graph.getState(config)).values.messages as BaseMessage[];
    expect(live).toHaveLength(6);
    const stored = await db
      .collection(agentCollections("chunks").messages)
      .countDocuments({ thread_id: "chunks" });
    expect(stored).toBe(live.length);

    const reader = saverOn("chunks");
    const latest = (await reader.getTuple(config))?.checkpoint.channel_values.messages as BaseMessage[];
    expect(latest.map((message) => message.constructor.name)).toEqual(live.map((m) => m.constructor.name));
    expect(latest.at(-1)).toBeInstanceOf(AIMessage);
    expect(latest.at(-1)?.toDict()).toEqual(live.at(-1)?.toDict());
    // The model step's pending write still holds the chunk exactly as the node returned it.
    const writes = [];
    for await (const tuple of reader.list(config)) {
      for (const [, channel, value] of tuple.pendingWrites ?? []) {
        if (channel === "messages") writes.push(...(value as BaseMessage[]));
      }
    }
    const chunk = writes.find((message) => message.id === live.at(-1)?.id);
    expect(chunk).toBeInstanceOf(AIMessageChunk);
    expect((chunk as AIMessageChunk).tool_call_chunks).toHaveLength(1);
  });
});
