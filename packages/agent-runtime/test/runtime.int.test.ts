import { randomUUID } from "node:crypto";
import { TaskState, taskStateToJSON } from "@a2a-js/sdk";
import { HumanMessage } from "@langchain/core/messages";
import { createChatModel } from "@switchboard/llm";
import {
  callTool,
  guardOutboundConnections,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { createAgent, humanInTheLoopMiddleware } from "langchain";
import { MongoClient } from "mongodb";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ANSWER_WITHOUT_TOKENS_EXTENSION } from "../src/http/card.js";
import type { RunningAgent } from "../src/serve.js";
import { SPEND_METADATA_KEY } from "../src/turn/budget.js";
import { clientFor, send, stateOf, statusText, userMessage } from "./a2a.js";
import { notesAgent, serveNotesAgent } from "./notes-agent.js";

type JsonRpcError = { error: { code: number; message: string } };

describe("agent runtime over A2A", () => {
  const dbName = uniqueDbName("runtime");
  const notes: string[] = [];
  let llm: ScriptedLlm;
  let mongo: MongoClient;
  let agent: RunningAgent | undefined;

  const start = async (extra?: Record<string, string>) => {
    agent = await serveNotesAgent({
      llm,
      dbName,
      notes,
      env: { MAX_REQUEST_BYTES: String(64 * 1024), ...extra },
    });
    return agent;
  };

  beforeAll(async () => {
    llm = await startScriptedLlm({
      script: rules(
        [
          {
            lastUser: /file both (\S+) and (\S+)/,
            reply: (_req, { match }) => ({
              toolCalls: [
                { name: "add_note", args: { text: match?.[1] } },
                { name: "list_notes", args: {} },
                { name: "add_note", args: { text: match?.[2] } },
              ],
            }),
          },
          {
            lastUser: /add note (.+)/,
            reply: (_req, { match }) => callTool("add_note", { text: match?.[1] }),
          },
          { lastUser: /list notes/, reply: callTool("list_notes", {}) },
          { lastUser: /secret/, reply: callTool("secret_notes", {}) },
          { lastUser: /slow/, reply: callTool("slow_notes", {}) },
          { afterTool: true, reply: replyFromToolResult() },
        ],
        say("I can list and add notes."),
      ),
    });
    mongo = await MongoClient.connect(testMongoUri());
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
    notes.length = 0;
  });
  afterAll(async () => {
    await mongo.db(dbName).dropDatabase();
    await mongo.close();
    await llm.close();
  });

  it("serves an agent card with its skills, streaming, and the public URL", async () => {
    const { url } = await start({ AGENT_PUBLIC_URL: "http://notes.internal:8123" });
    const response = await fetch(`${url}/.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } });
    const card = (await response.json()) as {
      name: string;
      capabilities: { streaming: boolean };
      skills: Array<{ id: string }>;
      supportedInterfaces: Array<{ url: string }>;
    };
    expect(card.name).toBe("notes");
    expect(card.capabilities.streaming).toBe(true);
    expect(card.skills.map((skill: { id: string }) => skill.id)).toEqual(["notes"]);
    const urls = card.supportedInterfaces.map((entry: { url: string }) => entry.url);
    expect(urls).toContain("http://notes.internal:8123/");
    expect(urls).toContain("http://notes.internal:8123/rest");
    expect(JSON.stringify(card)).not.toContain("0.0.0.0");

    const legacy = await (await fetch(`${url}/.well-known/agent-card.json`)).json();
    expect(legacy).toMatchObject({
      name: "notes",
      protocolVersion: "0.3",
      url: "http://notes.internal:8123/",
    });
  });

  it("answers from a read tool and keeps the conversation in checkpoints_notes", async () => {
    const { url } = await start();
    notes.push("water plants");
    const client = await clientFor(url);
    const contextId = `ctx-${randomUUID()}`;
    const first = await send(client, "please list notes", contextId);
    expect(stateOf(first)).toBe("TASK_STATE_COMPLETED");
    expect(first.contextId).toBe(contextId);
    expect(statusText(first)).toContain("water plants");
    expect(first.artifacts[0]?.parts[0]?.content).toMatchObject({ $case: "text" });
    // What the turn spent (the tool call, then the answer) goes back with it (turn/budget.ts).
    expect(first.metadata?.[SPEND_METADATA_KEY]).toEqual({ model_calls: 2, tokens: expect.any(Number) });
    // The same on HTTP+JSON: the stored task carries it on every binding.
    const overRest = (await (await fetch(`${url}/rest/tasks/${first.id}`)).json()) as {
      metadata?: Record<string, unknown>;
    };
    expect(overRest.metadata?.[SPEND_METADATA_KEY]).toEqual(first.metadata?.[SPEND_METADATA_KEY]);

    await send(client, "hello again", contextId);
    const secondRequest = llm.requests.at(-1);
    expect(JSON.stringify(secondRequest?.messages)).toContain("please list notes");
    expect(
      await mongo.db(dbName).collection("checkpoints_notes").countDocuments({ thread_id: contextId }),
    ).toBeGreaterThan(0);
  });

  it("asks before a change, survives a restart, and performs an approved change exactly once", async () => {
    let client = await clientFor((await start()).url);
    const contextId = `ctx-${randomUUID()}`;
    const asked = await send(client, "add note buy milk", contextId);
    expect(stateOf(asked)).toBe("TASK_STATE_INPUT_REQUIRED");
    expect(statusText(asked)).toContain('Add the note "buy milk" to your notes?');
    expect(notes).toEqual([]);

    await agent?.close();
    client = await clientFor((await start()).url);
    const reloaded = await client.getTask({ tenant: "", id: asked.id, historyLength: undefined });
    expect(stateOf(reloaded)).toBe("TASK_STATE_INPUT_REQUIRED");

    const unclear = await send(client, "hmm, maybe", contextId, asked.id);
    expect(stateOf(unclear)).toBe("TASK_STATE_INPUT_REQUIRED");
    expect(statusText(unclear)).toMatch(/answer yes or no/i);

    const done = await send(client, "yes", contextId, asked.id);
    expect(stateOf(done)).toBe("TASK_STATE_COMPLETED");
    expect(done.id).toBe(asked.id);
    expect(notes).toEqual(["buy milk"]);
    expect(statusText(done)).toContain('added "buy milk"');
  });

  it("does nothing when the change is declined", async () => {
    const client = await clientFor((await start()).url);
    const contextId = `ctx-${randomUUID()}`;
    const asked = await send(client, "add note sell car", contextId);
    const declined = await send(client, "no", contextId, asked.id);
    expect(stateOf(declined)).toBe("TASK_STATE_COMPLETED");
    expect(notes).toEqual([]);
    expect(statusText(declined)).toContain("declined");
  });

  it("asks once for several changes in one reply, and runs each approved change once", async () => {
    const client = await clientFor((await start()).url);
    notes.push("water plants");
    const contextId = `ctx-${randomUUID()}`;
    const asked = await send(client, "file both milk and eggs", contextId);
    expect(stateOf(asked)).toBe("TASK_STATE_INPUT_REQUIRED");
    expect(statusText(asked)).toBe(
      '- Add the note "milk" to your notes?\n  add_note will be sent exactly:\n    text: milk\n' +
        '- Add the note "eggs" to your notes?\n  add_note will be sent exactly:\n    text: eggs\n' +
        "Shall I go ahead? Answer yes or no.",
    );
    expect(notes).toEqual(["water plants"]);

    const done = await send(client, "yes", contextId, asked.id);
    expect(stateOf(done)).toBe("TASK_STATE_COMPLETED");
    expect([...notes].sort()).toEqual(["eggs", "milk", "water plants"]);
    // The read beside the changes ran once, before the pause: it saw neither new note.
    expect(statusText(done)).toContain('list_notes returned: ["water plants"]');
    expect(statusText(done)).toContain('added "milk"');
    expect(statusText(done)).toContain('added "eggs"');
  });

  it("continues a conversation paused by the human-in-the-loop step agents had before, changing nothing", async () => {
    const running = await start();
    const client = await clientFor(running.url);
    const contextId = `ctx-${randomUUID()}`;
    // What an agent before confirm-changes.ts stored: a pause in langchain's own step after the model.
    const before = createAgent({
      model: (await createChatModel({ env: llm.env })).model,
      tools: notesAgent(notes)
        .tools({})
        .map(({ tool }) => tool),
      checkpointer: running.checkpointer,
      middleware: [humanInTheLoopMiddleware({ interruptOn: { add_note: true } })],
    });
    const config = { configurable: { thread_id: contextId } };
    await before.invoke({ messages: [new HumanMessage("add note old milk")] }, config);
    expect((await before.graph.getState(config)).tasks[0]?.interrupts).toHaveLength(1);

    const answered = await send(client, "yes", contextId);
    expect(stateOf(answered)).toBe("TASK_STATE_COMPLETED");
    expect(notes).toEqual([]);
    const sent = JSON.stringify(llm.requests.at(-1)?.messages);
    expect(sent).toContain("This change was not run and nothing was changed");
    expect(sent).toContain("old milk");
  });

  it("fails the task with a message naming the missing variable", async () => {
    const client = await clientFor((await start()).url);
    const failed = await send(client, "show secret notes", `ctx-${randomUUID()}`);
    expect(stateOf(failed)).toBe("TASK_STATE_FAILED");
    expect(statusText(failed)).toBe("NOTES_TOKEN is not set: set it to read secret notes.");
  });

  it("streams status updates, tool calls included, before the final answer", async () => {
    const client = await clientFor((await start()).url);
    notes.push("call mom");
    const events: string[] = [];
    for await (const event of client.sendMessageStream({
      tenant: "",
      message: userMessage("list notes", `ctx-${randomUUID()}`),
      configuration: undefined,
      metadata: undefined,
    })) {
      const payload = event.payload;
      if (payload?.$case === "statusUpdate") {
        const state = taskStateToJSON(payload.value.status?.state ?? 0);
        const text = payload.value.status?.message?.parts[0]?.content;
        events.push(`status:${state}:${text?.$case === "text" ? text.value : ""}`);
      } else if (payload?.$case === "artifactUpdate") {
        events.push(`artifact:${payload.value.lastChunk}`);
      } else if (payload) {
        events.push(payload.$case);
      }
    }
    expect(events[0]).toBe("task");
    const toolCall = events.indexOf("status:TASK_STATE_WORKING:Calling list_notes");
    const finalArtifact = events.indexOf("artifact:true");
    expect(toolCall).toBeGreaterThan(0);
    expect(finalArtifact).toBeGreaterThan(toolCall);
    // The model streamed its answer: tokens arrived as appended chunks before the final artifact.
    const firstToken = events.indexOf("artifact:false");
    expect(firstToken).toBeGreaterThan(toolCall);
    expect(firstToken).toBeLessThan(finalArtifact);
    expect(events.at(-1)).toMatch(/^status:TASK_STATE_COMPLETED:.*call mom/);
  });

  it("streams progress and the answer without its tokens to a client that asks for that extension", async () => {
    const client = await clientFor((await start()).url);
    notes.push("call mom");
    const card = await client.getAgentCard();
    expect(card.capabilities?.extensions.map((extension) => extension.uri)).toContain(
      ANSWER_WITHOUT_TOKENS_EXTENSION,
    );
    const events: string[] = [];
    for await (const event of client.sendMessageStream(
      {
        tenant: "",
        message: userMessage("list notes", `ctx-${randomUUID()}`),
        configuration: undefined,
        metadata: undefined,
      },
      { serviceParameters: { "A2A-Extensions": ANSWER_WITHOUT_TOKENS_EXTENSION } },
    )) {
      const payload = event.payload;
      if (payload?.$case === "statusUpdate") {
        const text = payload.value.status?.message?.parts[0]?.content;
        events.push(`status:${text?.$case === "text" ? text.value : ""}`);
      } else if (payload?.$case === "artifactUpdate") {
        const text = payload.value.artifact?.parts[0]?.content;
        events.push(`artifact:${payload.value.lastChunk}:${text?.$case === "text" ? text.value : ""}`);
      }
    }
    expect(events).toContain("status:Calling list_notes");
    expect(events.filter((event) => event.startsWith("artifact:false"))).toEqual([]);
    expect(events.filter((event) => event.startsWith("artifact:true"))).toEqual([
      expect.stringContaining("call mom"),
    ]);
    expect(events.at(-1)).toMatch(/^status:.*call mom/);
  });

  it("cancels a running turn", async () => {
    const client = await clientFor((await start()).url);
    const contextId = `ctx-${randomUUID()}`;
    let taskId = "";
    const stream = client.sendMessageStream({
      tenant: "",
      message: userMessage("slow please", contextId),
      configuration: undefined,
      metadata: undefined,
    });
    const states: string[] = [];
    for await (const event of stream) {
      const payload = event.payload;
      if (payload?.$case === "task") taskId = payload.value.id;
      if (payload?.$case === "statusUpdate") {
        states.push(taskStateToJSON(payload.value.status?.state ?? 0));
        const text = payload.value.status?.message?.parts[0]?.content;
        if (text?.$case === "text" && text.value === "still thinking") {
          await client.cancelTask({ tenant: "", id: taskId, metadata: undefined });
        }
      }
    }
    expect(states.at(-1)).toBe("TASK_STATE_CANCELED");
    const task = await client.getTask({ tenant: "", id: taskId, historyLength: undefined });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it("opens no socket to any host other than its LLM and MongoDB during turns (no tokenizer downloads)", async () => {
    const guard = guardOutboundConnections();
    try {
      const client = await clientFor((await start()).url);
      const contextId = `ctx-${randomUUID()}`;
      await send(client, "list notes", contextId);
      for await (const _event of client.sendMessageStream({
        tenant: "",
        message: userMessage("list notes again", contextId),
        configuration: undefined,
        metadata: undefined,
      })) {
        // drain
      }
    } finally {
      guard.restore();
    }
    expect(guard.attempts.length).toBeGreaterThan(0);
    expect(guard.disallowedHosts()).toEqual([]);
  });

  it("reports health, readiness and Prometheus metrics", async () => {
    const { url } = await start();
    await send(await clientFor(url), "hi", `ctx-${randomUUID()}`);
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: "ok", agent: "notes" });
    const ready = await fetch(`${url}/ready`);
    expect(ready.status).toBe(200);
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/switchboard_a2a_requests_total\{method="sendMessage",outcome="ok"\} \d+/);
    expect(metrics).toMatch(/switchboard_turn_duration_seconds_count\{outcome="completed"\} \d+/);
    expect(metrics).toMatch(
      /switchboard_checkpoint_write_duration_seconds_count\{agent="notes",operation="put",backend="mongodb"\}/,
    );
  });

  it("rejects oversized and malformed bodies with clear errors and keeps serving", async () => {
    const { url } = await start();
    const huge = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: { pad: "x".repeat(100_000) },
      }),
    });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as JsonRpcError).error.message).toMatch(/larger than the 64 KiB limit/);

    const malformed = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{oops",
    });
    expect(((await malformed.json()) as JsonRpcError).error.code).toBe(-32700);

    const task = await send(await clientFor(url), "hi", `ctx-${randomUUID()}`);
    expect(stateOf(task)).toBe("TASK_STATE_COMPLETED");
  });
});
