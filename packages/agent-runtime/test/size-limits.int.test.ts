import { randomBytes, randomUUID } from "node:crypto";
import { connectAgent } from "@switchboard/a2a-client";
import { agentCollections, MongoCheckpointSaver } from "@switchboard/utils";
import {
  callTool,
  lastUserText,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_TOOL_RESULT_CHARS } from "../src/graph/tool-results.js";
import type { RunningAgent } from "../src/serve.js";
import { serveNotesAgent } from "./notes-agent.js";

/** The conversation's messages in its latest checkpoint, read by a saver of their own. */
async function storedMessages(db: Db, thread: string) {
  const saver = new MongoCheckpointSaver({ db, collections: agentCollections("notes") });
  const tuple = await saver.getTuple({ configurable: { thread_id: thread } });
  return (tuple?.checkpoint.channel_values.messages ?? []) as Array<{
    getType(): string;
    content: unknown;
  }>;
}

// The reference system hit "document too large" with 6.4 MB average checkpoints.
describe("state near MongoDB's 16 MB document limit", () => {
  const dbName = uniqueDbName("sizes");
  let llm: ScriptedLlm;
  let mongo: MongoClient;
  let agent: RunningAgent;

  const messagesOf = (thread: string) => storedMessages(mongo.db(dbName), thread);

  beforeAll(async () => {
    llm = await startScriptedLlm({
      script: rules(
        [
          { lastUser: /dump/, reply: callTool("dump_notes", {}) },
          {
            afterTool: "dump_notes",
            reply: (request) => say(`got ${String(request.messages.at(-1)?.content).length} characters`),
          },
        ],
        say("fine"),
      ),
    });
    mongo = await MongoClient.connect(testMongoUri());
    agent = await serveNotesAgent({ llm, dbName, env: { MAX_REQUEST_BYTES: String(40 * 1024 * 1024) } });
  });
  afterAll(async () => {
    await agent.close();
    await mongo.db(dbName).dropDatabase();
    await Promise.all([mongo.close(), llm.close()]);
  });

  it("trims a 20 MB tool result to what the model needs, with a marker, in what is persisted", async () => {
    const connection = await connectAgent(agent.url);
    const contextId = `dump-${randomUUID()}`;
    const result = await connection.send({ text: "dump all notes", contextId });
    expect(result.state).toBe("completed");
    const toolMessage = (await messagesOf(contextId)).find((message) => message.getType() === "tool");
    const content = String(toolMessage?.content);
    expect(content.length).toBeLessThan(MAX_TOOL_RESULT_CHARS + 100);
    expect(content).toMatch(/\[… \d+ more characters omitted\]$/);
  });

  it("ends a turn whose state would pass 16 MB with a clear error, and the conversation goes on", async () => {
    const connection = await connectAgent(agent.url);
    const contextId = `huge-${randomUUID()}`;
    expect((await connection.send({ text: "first, a small message", contextId })).state).toBe("completed");

    const huge = await connection.send({ text: "y".repeat(17 * 1024 * 1024), contextId });
    expect(huge.state).toBe("failed");
    expect(huge.text).toContain("past MongoDB's 16 MB document limit");
    expect(huge.text).not.toMatch(/BSON|\n\s+at /);

    const next = await connection.send({ text: "a normal message again", contextId });
    expect(next.state).toBe("completed");
    const contents = (await messagesOf(contextId)).map((message) => String(message.content));
    expect(contents).toContain("first, a small message");
    expect(contents).toContain("a normal message again");
    expect(contents.some((content) => content.length > 1_000_000)).toBe(false);
  });
});

// A long conversation with large messages: upstream's saver stores the whole state in one
// checkpoint document, so past 16 MB in total every turn would fail. Nothing is summarized here,
// so the state keeps every message, and the model is sent all of it.
describe("a conversation past 16 MB in total", () => {
  const dbName = uniqueDbName("sizes");
  const MiB = 1024 * 1024;
  const TURNS = 12;
  let llm: ScriptedLlm;
  let mongo: MongoClient;
  let agent: RunningAgent;

  /** Random text (base64), so that deflate cannot shrink what is stored below what was said. */
  const noise = (chars: number) =>
    randomBytes(Math.ceil((chars * 3) / 4))
      .toString("base64")
      .slice(0, chars);

  /** Every document's raw BSON size in the saver's collections (mongo-java-server has no $bsonSize). */
  const storedSizes = async (db: Db) => {
    const sizes: Array<{ collection: string; bytes: number }> = [];
    for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
      if (!name.startsWith("checkpoint")) continue;
      for await (const raw of db.collection(name).find({}, { raw: true, batchSize: 20 })) {
        sizes.push({ collection: name, bytes: (raw as unknown as Uint8Array).byteLength });
      }
    }
    return sizes;
  };

  beforeAll(async () => {
    llm = await startScriptedLlm({
      // The whole conversation goes to the model every turn: past 20 MB by the last ones.
      maxBodyBytes: 64 * MiB,
      script: (request) => {
        const text = lastUserText(request) ?? "";
        const seen = request.messages.filter((message) => message.role !== "system").length;
        return say(`saw ${seen} messages, the last ${text.length} characters long ${noise(MiB / 2)}`);
      },
    });
    mongo = await MongoClient.connect(testMongoUri());
    agent = await serveNotesAgent({
      llm,
      dbName,
      env: { MAX_REQUEST_BYTES: String(4 * MiB), ENABLE_AUTO_COMPRESSION: "false" },
    });
  });
  afterAll(async () => {
    await agent.close();
    await mongo.db(dbName).dropDatabase();
    await Promise.all([mongo.close(), llm.close()]);
  });

  it("keeps going turn after turn, stores every message, and no document near the limit", async () => {
    const connection = await connectAgent(agent.url);
    const contextId = `long-${randomUUID()}`;
    const said: string[] = [];
    for (let turn = 1; turn <= TURNS; turn++) {
      const text = noise(1.5 * MiB);
      const result = await connection.send({ text, contextId });
      expect(result.state, result.text.slice(0, 300)).toBe("completed");
      expect(result.text).toMatch(new RegExp(`^saw ${2 * turn - 1} messages, the last ${text.length} `));
      said.push(text, result.text);
      llm.requests.length = 0; // each held the whole conversation
    }
    const total = said.reduce((sum, text) => sum + text.length, 0);
    expect(total).toBeGreaterThan(20 * MiB);

    const stored = await storedMessages(mongo.db(dbName), contextId);
    expect(stored.map((message) => message.getType()).join(" ")).toBe(
      Array.from({ length: TURNS }, () => "human ai").join(" "),
    );
    const differing = stored.flatMap((message, i) => (message.content === said[i] ? [] : [i]));
    expect(differing, "messages whose stored content differs from what was said").toEqual([]);

    const sizes = await storedSizes(mongo.db(dbName));
    const largest = sizes.reduce((max, size) => (size.bytes > max.bytes ? size : max));
    expect(largest.bytes, `largest document, in ${largest.collection}`).toBeLessThan(2 * MiB);
    // Stored, not just said: random text does not deflate far, so the documents pass 16 MB together.
    expect(sizes.reduce((sum, size) => sum + size.bytes, 0)).toBeGreaterThan(16 * MiB);
  });
});
