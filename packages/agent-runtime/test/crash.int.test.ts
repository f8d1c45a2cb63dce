import { randomUUID } from "node:crypto";
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  isBaseMessage,
  ToolMessage,
} from "@langchain/core/messages";
import type { CheckpointTuple } from "@langchain/langgraph";
import { type AgentConnection, connectAgent } from "@switchboard/a2a-client";
import { agentCollections, MongoCheckpointSaver } from "@switchboard/utils";
import type { AgentProcess } from "@switchboard-testing/test-agents";
import {
  type ChatCompletionRequest,
  callTool,
  lastUserText,
  messageText,
  recallUserMessages,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  type ScriptReply,
  say,
  startScriptedLlm,
  toolPairProblems,
} from "@switchboard-testing/test-llm";
import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LOST_RESULT } from "../src/turn/lost-tool-calls.js";
import { startNotesProcess } from "./notes-agent.js";

/** Model replies held back until released: a turn stays mid-flight exactly as long as a test wants. */
class HeldReplies {
  private readonly pending: Array<() => void> = [];
  private readonly waiters: Array<{ count: number; resolve: () => void }> = [];

  hold(reply: ScriptReply | Promise<ScriptReply>): Promise<ScriptReply> {
    return new Promise((resolve) => {
      this.pending.push(() => resolve(reply));
      for (const waiter of this.waiters.filter(({ count }) => this.pending.length >= count)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  }

  /** Resolves once `count` requests are being held. */
  reached(count = 1): Promise<void> {
    if (this.pending.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  releaseAll(): void {
    for (const release of this.pending.splice(0)) release();
  }
}

/** An acknowledged turn: what the user sent and the answer they got. */
interface Acknowledged {
  user: string;
  answer: string;
}

/** What the stored conversation was right after an acknowledged turn. */
interface Mark {
  checkpointId: string;
  messageIds: string[];
}

const userStarts = (prefix: string) => (request: ChatCompletionRequest) =>
  (lastUserText(request) ?? "").startsWith(prefix);

// A replica dies by SIGKILL in the middle of a turn while another serves the same conversations:
// what it stored must still read back whole, and the survivor must carry on from it.
describe("SIGKILL mid-turn with two replicas", () => {
  const dbName = uniqueDbName("crash");
  const lease = { THREAD_LEASE_SECONDS: "1" };
  /** Turns on the replica that is killed. */
  const onVictim = new HeldReplies();
  /** Turns on the survivor, released as the other replica dies. */
  const onSurvivor = new HeldReplies();
  let llm: ScriptedLlm;
  let mongo: MongoClient;

  /** The replica every test keeps: a fresh one to kill is started per test. */
  let survivor: AgentProcess;
  let toSurvivor: AgentConnection;
  const victims: AgentProcess[] = [];

  const startVictim = async () => {
    const victim = await startNotesProcess({ llm, dbName, env: lease });
    victims.push(victim);
    return { victim, toVictim: await connectAgent(victim.url) };
  };

  /** A saver of its own on the agent's collections, with nothing cached from earlier reads. */
  const reader = () =>
    new MongoCheckpointSaver({ db: mongo.db(dbName), collections: agentCollections("notes") });

  const latest = async (thread: string) => {
    const tuple = await reader().getTuple({ configurable: { thread_id: thread } });
    if (!tuple) throw new Error(`conversation ${thread} has no checkpoint`);
    return tuple;
  };

  const mark = async (thread: string): Promise<Mark> => {
    const tuple = await latest(thread);
    return { checkpointId: tuple.checkpoint.id, messageIds: messagesOf(tuple).map((m) => String(m.id)) };
  };

  /** A turn that must complete; its user text and answer join the acknowledged history. */
  const acknowledge = async (
    connection: AgentConnection,
    user: string,
    contextId: string,
    history: Acknowledged[],
    marks: Mark[],
  ) => {
    const result = await connection.send({ text: user, contextId });
    expect(result.state, result.text).toBe("completed");
    history.push({ user, answer: result.text });
    marks.push(await mark(contextId));
  };

  /**
   * Reads every checkpoint of the conversation twice, through list() and through getTuple() of
   * each on another fresh saver, and checks nothing is torn: both reads agree, every checkpoint's
   * parent is stored, a channel whose version did not change kept its value, the messages only
   * grow along the way, and no checkpoint after an acknowledged turn holds less than it left.
   */
  const expectWhole = async (thread: string, marks: Mark[]) => {
    const listed: CheckpointTuple[] = [];
    for await (const tuple of reader().list({ configurable: { thread_id: thread } })) listed.push(tuple);
    expect(listed.length).toBeGreaterThan(0);

    const single = reader();
    const byId = new Map<string, CheckpointTuple>();
    for (const tuple of listed) {
      const again = await single.getTuple(tuple.config);
      if (!again) throw new Error(`checkpoint ${tuple.checkpoint.id} was listed but does not load`);
      expect(Object.keys(again.checkpoint.channel_values).sort()).toEqual(
        Object.keys(tuple.checkpoint.channel_values).sort(),
      );
      expect(idsOf(again)).toEqual(idsOf(tuple));
      expect(again.pendingWrites?.length).toBe(tuple.pendingWrites?.length);
      byId.set(again.checkpoint.id, again);
    }

    for (const tuple of byId.values()) {
      const { channel_values: values, channel_versions: versions } = tuple.checkpoint;
      if ("messages" in versions) {
        expect(Array.isArray(values.messages), `messages of ${tuple.checkpoint.id}`).toBe(true);
        for (const message of values.messages as unknown[]) expect(isBaseMessage(message)).toBe(true);
      }
      const parentId = tuple.parentConfig?.configurable?.checkpoint_id as string | undefined;
      if (parentId !== undefined) {
        const parent = byId.get(parentId);
        if (!parent) throw new Error(`checkpoint ${tuple.checkpoint.id} has no stored parent ${parentId}`);
        for (const [channel, version] of Object.entries(parent.checkpoint.channel_versions)) {
          if (versions[channel] !== version || !(channel in parent.checkpoint.channel_values)) continue;
          expect(values, `${channel} at ${tuple.checkpoint.id} (unchanged since its parent)`).toHaveProperty([
            channel,
          ]);
        }
        expect(idsOf(tuple).slice(0, idsOf(parent).length)).toEqual(idsOf(parent));
      }
      for (const { checkpointId, messageIds } of marks) {
        if (tuple.checkpoint.id < checkpointId) continue;
        expect(idsOf(tuple).slice(0, messageIds.length), `messages at ${tuple.checkpoint.id}`).toEqual(
          messageIds,
        );
      }
    }
  };

  /** Every acknowledged turn's user message and answer, in order, in the latest state. */
  const expectHistory = async (thread: string, history: Acknowledged[]) => {
    const messages = messagesOf(await latest(thread));
    let from = 0;
    for (const { user, answer } of history) {
      const asked = messages.findIndex(
        (m, i) => i >= from && HumanMessage.isInstance(m) && m.content === user,
      );
      expect(asked, `"${user}" is stored`).toBeGreaterThanOrEqual(0);
      const answered = messages.findIndex(
        (m, i) => i > asked && AIMessage.isInstance(m) && m.content === answer,
      );
      expect(answered, `the answer to "${user}" is stored`).toBeGreaterThan(asked);
      from = answered + 1;
    }
  };

  /**
   * A new turn on the survivor: it completes, and the model was sent the whole earlier history as
   * a provider accepts it (every tool call with its result).
   */
  const expectContinues = async (contextId: string, history: Acknowledged[]) => {
    const text = `recall ${contextId}`;
    const result = await toSurvivor.send({ text, contextId });
    expect(result.state, result.text).toBe("completed");
    const request = llm.requests.findLast((r) => lastUserText(r) === text);
    if (!request) throw new Error("the model was not asked");
    expect(toolPairProblems(request)).toEqual([]);
    const sent = request.messages.map((m) => `${m.role}: ${messageText(m.content ?? "")}`);
    for (const { user, answer } of history) {
      expect(sent).toContain(`user: ${user}`);
      expect(sent).toContain(`assistant: ${answer}`);
    }
    history.push({ user: text, answer: result.text });
    return request;
  };

  /**
   * Starts a turn on the victim and SIGKILLs the victim while the turn is mid-flight: once the
   * model holds its reply, or (for "two tools") once one tool's result is stored and the other runs.
   */
  const killMidTurn = async (
    victim: AgentProcess,
    toVictim: AgentConnection,
    text: string,
    contextId: string,
  ) => {
    const lost = toVictim.send({ text, contextId }).then(
      (result) => result.state,
      () => "no answer",
    );
    if (text.startsWith("two tools")) {
      // list_notes's result is stored as a pending write while slow_notes still runs.
      await expect
        .poll(async () => (await latest(contextId)).pendingWrites?.map(([, , value]) => toolName(value)), {
          timeout: 15_000,
        })
        .toContain("list_notes");
    } else {
      await onVictim.reached();
    }
    await victim.kill("SIGKILL");
    expect(await lost).toBe("no answer");
  };

  beforeAll(async () => {
    const hold = (held: HeldReplies, reply: ScriptReply) => () => held.hold(reply);
    llm = await startScriptedLlm({
      script: rules(
        [
          { lastUser: /^hold model/, reply: hold(onVictim, say("too late")) },
          { lastUser: /^(hold after tool|look up|survivor)/, reply: callTool("list_notes", {}) },
          {
            lastUser: /^two tools/,
            reply: {
              toolCalls: [
                { name: "list_notes", args: {} },
                { name: "slow_notes", args: {} },
              ],
            },
          },
          {
            lastUser: /^add note (.+)/,
            reply: (_r, { match }) => callTool("add_note", { text: match?.[1] }),
          },
          { lastUser: /^recall/, reply: recallUserMessages() },
          { afterTool: true, test: userStarts("hold after tool"), reply: hold(onVictim, say("too late")) },
          {
            afterTool: true,
            test: userStarts("survivor"),
            reply: (request) => onSurvivor.hold(say(`${lastUserText(request)}: done`)),
          },
          {
            afterTool: true,
            reply: replyFromToolResult(
              (results, request) => `${lastUserText(request)}: ${results.map((r) => r.content).join(", ")}`,
            ),
          },
        ],
        (request) => say(`answer to: ${lastUserText(request)}`),
      ),
    });
    mongo = await MongoClient.connect(testMongoUri());
    survivor = await startNotesProcess({ llm, dbName, env: lease });
    toSurvivor = await connectAgent(survivor.url);
  });
  afterEach(async () => {
    await Promise.all(victims.splice(0).map((agent) => agent.kill("SIGKILL")));
    onVictim.releaseAll();
    onSurvivor.releaseAll();
  });
  afterAll(async () => {
    await survivor?.kill("SIGKILL");
    await mongo.db(dbName).dropDatabase();
    await Promise.all([mongo.close(), llm.close()]);
  });

  it.each([
    ["the model is answering", "hold model"],
    ["a tool has answered and the model is answering again", "hold after tool"],
    ["one of two tools has answered and the other is still running", "two tools"],
  ])("keeps one conversation whole when a replica dies while %s", async (_label, killedTurn) => {
    const { victim, toVictim } = await startVictim();
    const contextId = `crash-${randomUUID()}`;
    const history: Acknowledged[] = [];
    const marks: Mark[] = [];

    // Acknowledged turns, alternating replicas: chat, tools, and a change approved on the other one.
    await acknowledge(toVictim, "hello, turn 1", contextId, history, marks);
    await acknowledge(toSurvivor, "look up turn 2", contextId, history, marks);
    const asked = await toVictim.send({ text: "add note turn-3", contextId });
    expect(asked.state, asked.text).toBe("input-required");
    const approved = await toSurvivor.send({ text: "yes", contextId, taskId: asked.taskId });
    expect(approved.state, approved.text).toBe("completed");
    history.push({ user: "add note turn-3", answer: approved.text });
    marks.push(await mark(contextId));
    await acknowledge(toVictim, "look up turn 4", contextId, history, marks);
    await acknowledge(toSurvivor, "hello, turn 5", contextId, history, marks);

    await killMidTurn(victim, toVictim, `${killedTurn}, turn 6`, contextId);

    await expectWhole(contextId, marks);
    await expectHistory(contextId, history);
    await expectContinues(contextId, history);
    await expectWhole(contextId, marks);
    await expectHistory(contextId, history);
  });

  // A tool call without a result is refused by OpenAI and Anthropic (400): the conversation could
  // not go on with a real provider.
  it("answers the tool calls a replica died in: the result it stored, and 'interrupted' for the other", async () => {
    const { victim, toVictim } = await startVictim();
    const contextId = `lost-call-${randomUUID()}`;
    const history: Acknowledged[] = [];
    await acknowledge(toVictim, "look up turn 1", contextId, history, []);
    await killMidTurn(victim, toVictim, "two tools, turn 2", contextId);
    const stored = (await latest(contextId)).pendingWrites
      ?.flatMap(([, , value]) => [value].flat())
      .find((value): value is ToolMessage => ToolMessage.isInstance(value) && value.name === "list_notes");
    if (!stored) throw new Error("list_notes's result was not stored");

    const request = await expectContinues(contextId, history);
    const results = request.messages.filter((m) => m.role === "tool").slice(-2);
    expect(results.map((m) => messageText(m.content ?? ""))).toEqual([
      messageText(stored.content),
      LOST_RESULT,
    ]);
  });

  it("keeps the survivor's conversations whole when the other replica dies while both are writing", async () => {
    const { victim, toVictim } = await startVictim();
    const conversations = (prefix: string, count: number) =>
      Array.from({ length: count }, () => ({
        contextId: `${prefix}-${randomUUID()}`,
        history: [] as Acknowledged[],
        marks: [] as Mark[],
      }));
    const onDead = conversations("victim", 2);
    const onLive = conversations("survivor", 3);

    // Some history on every conversation, on both replicas at once.
    await Promise.all(
      [...onDead.map((c) => [toVictim, c] as const), ...onLive.map((c) => [toSurvivor, c] as const)].map(
        async ([connection, { contextId, history, marks }]) => {
          await acknowledge(connection, `hello, ${contextId}`, contextId, history, marks);
          await acknowledge(connection, `look up ${contextId}`, contextId, history, marks);
        },
      ),
    );

    // The victim's turns are mid-flight; the survivor's are held after their tool call, then
    // released as the victim is killed, so both replicas write their conversations at that moment.
    const lost = onDead.map(({ contextId }) =>
      toVictim.send({ text: `hold after tool ${contextId}`, contextId }).then(
        (result) => result.state,
        () => "no answer",
      ),
    );
    const running = onLive.map(({ contextId }) =>
      toSurvivor.send({ text: `survivor turn ${contextId}`, contextId }),
    );
    await Promise.all([onVictim.reached(onDead.length), onSurvivor.reached(onLive.length)]);
    onSurvivor.releaseAll();
    await victim.kill("SIGKILL");
    expect(await Promise.all(lost)).toEqual(onDead.map(() => "no answer"));
    const results = await Promise.all(running);
    for (const [i, result] of results.entries()) {
      expect(result.state, result.text).toBe("completed");
      const { contextId, history, marks } = onLive[i] as (typeof onLive)[number];
      history.push({ user: `survivor turn ${contextId}`, answer: result.text });
      marks.push(await mark(contextId));
    }

    const all = [...onLive, ...onDead];
    await Promise.all(
      all.map(async ({ contextId, history, marks }) => {
        await expectWhole(contextId, marks);
        await expectHistory(contextId, history);
      }),
    );
    // The survivor's own conversations and the dead replica's all go on, on the survivor.
    await Promise.all(
      all.map(async ({ contextId, history, marks }) => {
        await expectContinues(contextId, history);
        await expectWhole(contextId, marks);
        await expectHistory(contextId, history);
      }),
    );
  });
});

function messagesOf(tuple: CheckpointTuple): BaseMessage[] {
  return (tuple.checkpoint.channel_values.messages ?? []) as BaseMessage[];
}

function idsOf(tuple: CheckpointTuple): string[] {
  return messagesOf(tuple).map((message) => String(message.id));
}

function toolName(value: unknown): string | undefined {
  const messages = Array.isArray(value) ? value : [value];
  return messages.find((message) => ToolMessage.isInstance(message))?.name;
}
