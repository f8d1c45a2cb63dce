import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { connectAgent } from "@switchboard/a2a-client";
import { agentCollections, MongoCheckpointSaver } from "@switchboard/utils";
import { type AgentProcess, startAgentProcess } from "@switchboard-testing/test-agents";
import {
  callTool,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { NOTES_MAIN } from "./notes-bundle.js";

const packageDir = join(import.meta.dirname, "..");

// "Double texting": two messages on one conversation at once, to one process or two replicas.
describe("one conversation, two messages at once", () => {
  const dbName = uniqueDbName("locks");
  let llm: ScriptedLlm;
  let mongo: MongoClient;
  const replicas: AgentProcess[] = [];

  const replica = async (extra: Record<string, string> = {}) => {
    const agent = await startAgentProcess(packageDir, {
      entry: NOTES_MAIN,
      env: {
        AGENT_NAME: "notes",
        ...testMongoEnv(dbName),
        ...llm.env,
        ...extra,
      },
    });
    replicas.push(agent);
    return agent;
  };

  /** The conversation as stored: one letter per message (h = human, a = AI, t = tool). */
  const transcript = async (thread: string) => {
    const saver = new MongoCheckpointSaver({ db: mongo.db(dbName), collections: agentCollections("notes") });
    const tuple = await saver.getTuple({ configurable: { thread_id: thread } });
    const messages = (tuple?.checkpoint.channel_values.messages ?? []) as Array<{
      getType(): string;
      content: unknown;
    }>;
    return messages.map((message) => ({ type: message.getType()[0], content: String(message.content) }));
  };

  beforeAll(async () => {
    llm = await startScriptedLlm({
      latencyMs: 300,
      script: rules(
        [
          { lastUser: /slow/, reply: callTool("slow_notes", {}) },
          { lastUser: /list/, reply: callTool("list_notes", {}) },
          { lastUser: /add note (.+)/, reply: (_r, { match }) => callTool("add_note", { text: match?.[1] }) },
          { afterTool: true, reply: replyFromToolResult() },
        ],
        (request) => say(`answer to: ${request.messages.at(-1)?.content}`),
      ),
    });
    mongo = await MongoClient.connect(testMongoUri());
  });
  afterEach(async () => {
    await Promise.all(replicas.splice(0).map((agent) => agent.kill("SIGKILL")));
  });
  afterAll(async () => {
    await mongo.db(dbName).dropDatabase();
    await Promise.all([mongo.close(), llm.close()]);
  });

  it.each([
    ["one process", 1],
    ["two replicas sharing MongoDB", 2],
  ])("serializes the turns on %s: neither interleaves nor is lost", async (_label, count) => {
    const agents = [await replica(), ...(count === 2 ? [await replica()] : [])];
    const contextId = `double-${randomUUID()}`;
    const [first, second] = await Promise.all(
      ["first message", "second message"].map(async (text, index) => {
        const connection = await connectAgent((agents[index % agents.length] as AgentProcess).url);
        return connection.send({ text, contextId });
      }),
    );
    expect([first?.state, second?.state]).toEqual(["completed", "completed"]);
    const stored = await transcript(contextId);
    expect(stored.map((message) => message.type).join("")).toBe("haha");
    expect(stored[1]?.content).toBe(`answer to: ${stored[0]?.content}`);
    expect(stored[3]?.content).toBe(`answer to: ${stored[2]?.content}`);
    expect(
      await mongo
        .db(dbName)
        .collection("locks_notes")
        .countDocuments({ _id: contextId as never }),
    ).toBe(0);
  });

  it("lets a second replica see and approve a task the first one paused", async () => {
    const [first, second] = [await replica(), await replica()];
    const contextId = `handover-${randomUUID()}`;
    const asked = await (await connectAgent(first.url)).send({
      text: "add note from replica one",
      contextId,
    });
    expect(asked.state).toBe("input-required");

    const other = await connectAgent(second.url);
    expect((await other.getTask(asked.taskId)).state).toBe("input-required");
    const approved = await other.send({ text: "yes", contextId, taskId: asked.taskId });
    expect(approved.state).toBe("completed");
    expect(approved.text).toContain('added "from replica one"');
  });

  it("refuses the second message with a clear busy error under CONCURRENT_TURN_POLICY=reject", async () => {
    const agent = await replica({ CONCURRENT_TURN_POLICY: "reject" });
    const connection = await connectAgent(agent.url);
    const contextId = `reject-${randomUUID()}`;
    const results = await Promise.all(["one", "two"].map((text) => connection.send({ text, contextId })));
    const states = results.map((result) => result.state).sort();
    expect(states).toEqual(["completed", "failed"]);
    expect(results.find((result) => result.state === "failed")?.text).toContain("This conversation is busy");
    expect((await transcript(contextId)).map((message) => message.type).join("")).toBe("ha");
  });

  it("frees a thread whose holder crashed once its lease expires", async () => {
    const lease = { THREAD_LEASE_SECONDS: "1" };
    const holder = await replica(lease);
    const contextId = `crash-${randomUUID()}`;
    const stuck = (await connectAgent(holder.url))
      .send({ text: "slow please", contextId })
      .catch(() => undefined);
    await expect
      .poll(
        () =>
          mongo
            .db(dbName)
            .collection("locks_notes")
            .countDocuments({ _id: contextId as never }),
        { timeout: 10_000 },
      )
      .toBe(1);
    await holder.kill("SIGKILL");
    await stuck;

    const survivor = await replica(lease);
    const result = await (await connectAgent(survivor.url)).send({ text: "list notes", contextId });
    expect(result.state).toBe("completed");
  });
});
