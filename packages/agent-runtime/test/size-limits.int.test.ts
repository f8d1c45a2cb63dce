import { randomUUID } from "node:crypto";
import { connectAgent } from "@switchboard/a2a-client/client";
import { callTool, say } from "@switchboard/test-llm/replies";
import { rules } from "@switchboard/test-llm/rules";
import { type ScriptedLlm, startScriptedLlm } from "@switchboard/test-llm/server";
import { testMongoUri, uniqueDbName } from "@switchboard/test-mongo/inject";
import { MongoCheckpointSaver } from "@switchboard/utils/mongo-saver";
import { agentCollections } from "@switchboard/utils/saver-docs";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_TOOL_RESULT_CHARS } from "../src/agent-graph.js";
import type { RunningAgent } from "../src/serve.js";
import { serveNotesAgent } from "./notes-agent.js";

// The reference system hit "document too large" with 6.4 MB average checkpoints.
describe("state near MongoDB's 16 MB document limit", () => {
  const dbName = uniqueDbName("sizes");
  let llm: ScriptedLlm;
  let mongo: MongoClient;
  let agent: RunningAgent;

  const messagesOf = async (thread: string) => {
    const saver = new MongoCheckpointSaver({ db: mongo.db(dbName), collections: agentCollections("notes") });
    const tuple = await saver.getTuple({ configurable: { thread_id: thread } });
    return (tuple?.checkpoint.channel_values.messages ?? []) as Array<{
      getType(): string;
      content: unknown;
    }>;
  };

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
