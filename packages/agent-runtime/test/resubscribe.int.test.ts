import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { AgentProcess } from "@switchboard-testing/test-agents";
import {
  type ChatCompletionRequest,
  callTool,
  lastUserText,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ABANDONED_REASON } from "../src/tasks/task-follower.js";
import { startNotesProcess } from "./notes-agent.js";

// A subscriber that reconnects to another replica than the one running its task follows the task
// through MongoDB to its end; if the running replica dies, the subscriber sees the task fail once
// the replica's lease runs out, never a stream that hangs.

const V1 = { "A2A-Version": "1.0" };

// biome-ignore lint/suspicious/noExplicitAny: wire JSON of both protocol versions
type Json = any;

/** The JSON of each server-sent event of a response, until the server ends the stream. */
async function* events(response: Response, what: string): AsyncGenerator<Json> {
  if (!response.body) throw new Error(`${what}: no body (HTTP ${response.status})`);
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trim())
        .join("\n");
      if (data) yield JSON.parse(data);
    }
  }
}

/** POSTs a streaming JSON-RPC call and yields each event's `result`. */
async function* stream(url: string, method: string, params: unknown, headers = {}): AsyncGenerator<Json> {
  const response = await fetch(`${url}/`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: randomUUID(), method, params }),
  });
  for await (const message of events(response, method)) {
    if (message.error) throw new Error(`${method}: ${JSON.stringify(message.error)}`);
    yield message.result;
  }
}

/** Subscribes over HTTP+JSON (GET <path>:subscribe) and yields each event. */
async function* restStream(url: string, path: string, headers = {}): AsyncGenerator<Json> {
  const response = await fetch(`${url}${path}`, { headers: { accept: "text/event-stream", ...headers } });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  yield* events(response, path);
}

/** Collects a stream to its end, failing if it is still open after `ms`. */
async function collect(events: AsyncGenerator<Json>, ms: number): Promise<Json[]> {
  const seen: Json[] = [];
  const done = (async () => {
    for await (const event of events) seen.push(event);
  })();
  const timeout = sleep(ms).then(() => {
    throw new Error(`the stream was still open after ${ms} ms: ${JSON.stringify(seen).slice(0, 500)}`);
  });
  await Promise.race([done, timeout]);
  return seen;
}

/** A v0.3 or v1.0 event's task state, if it carries one. */
const stateOf = (event: Json): string | undefined =>
  event.status?.state ?? event.task?.status?.state ?? event.statusUpdate?.status?.state;

const textOf = (event: Json): string =>
  JSON.stringify(
    event.task?.status?.message ?? event.status?.message ?? event.task?.artifacts ?? event.artifacts ?? "",
  );

describe("subscribing to a task on another replica", () => {
  const dbName = uniqueDbName("resubscribe");
  const lease = { THREAD_LEASE_SECONDS: "1" };
  let llm: ScriptedLlm;
  const replicas: AgentProcess[] = [];

  const script = async (request: ChatCompletionRequest) => {
    const text = lastUserText(request) ?? "";
    if (request.messages.at(-1)?.role === "tool") return say("done slowly");
    if (text.startsWith("slowly")) {
      await sleep(1_500);
      return say("done slowly");
    }
    if (text.startsWith("stall")) return callTool("slow_notes", {});
    return say("ok");
  };

  beforeAll(async () => {
    llm = await startScriptedLlm({ script });
    for (let i = 0; i < 3; i++) replicas.push(await startNotesProcess({ llm, dbName, env: lease }));
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.kill("SIGTERM").catch(() => undefined)));
    await llm?.close();
  });

  /** Starts a streamed turn on `replica` and returns its task id once the replica has stored it. */
  async function startTurn(
    replica: AgentProcess,
    text: string,
  ): Promise<{ taskId: string; rest: Promise<Json[]> }> {
    const events = stream(replica.url, "message/stream", {
      message: {
        kind: "message",
        role: "user",
        messageId: randomUUID(),
        contextId: `sub-${randomUUID()}`,
        parts: [{ kind: "text", text }],
      },
    });
    const first = await events.next();
    const taskId: string = first.value?.id ?? first.value?.taskId;
    expect(taskId, JSON.stringify(first.value)).toBeTruthy();
    const rest = collect(events, 30_000).catch(() => []);
    // The running replica writes its task's first state at once; give MongoDB that write.
    await sleep(300);
    return { taskId, rest };
  }

  it("v0.3 tasks/resubscribe on another replica follows the task to its answer", async () => {
    const [running, other] = replicas as [AgentProcess, AgentProcess];
    const { taskId } = await startTurn(running, "slowly, please");
    const events = await collect(stream(other.url, "tasks/resubscribe", { id: taskId }), 15_000);
    expect(stateOf(events[0]), JSON.stringify(events[0])).toMatch(/working|submitted/);
    const last = events.at(-1);
    expect(stateOf(last)).toBe("completed");
    expect(textOf(last)).toContain("done slowly");
  });

  it.each([
    ["v1.0", "/rest/tasks/{id}:subscribe", V1],
    ["v0.3", "/rest/v1/tasks/{id}:subscribe", {}],
  ])(
    "%s HTTP+JSON subscription on another replica follows the task to its answer",
    async (_version, path, headers) => {
      const [running, other] = replicas as [AgentProcess, AgentProcess];
      const { taskId } = await startTurn(running, "slowly, over REST");
      const events = await collect(restStream(other.url, path.replace("{id}", taskId), headers), 15_000);
      expect(stateOf(events[0]), JSON.stringify(events[0])).toMatch(/working|submitted|TASK_STATE_WORKING/);
      expect(stateOf(events.at(-1))).toMatch(/^(completed|TASK_STATE_COMPLETED)$/);
      expect(textOf(events.at(-1))).toContain("done slowly");
    },
  );

  it("v1.0 SubscribeToTask on another replica ends with the task failed when the running replica dies", async () => {
    const victim = replicas[2] as AgentProcess;
    const other = replicas[1] as AgentProcess;
    const { taskId } = await startTurn(victim, "stall here");
    const subscription = collect(stream(other.url, "SubscribeToTask", { id: taskId }, V1), 20_000);
    await sleep(500);
    await victim.kill("SIGKILL");
    const events = await subscription;
    const last = events.at(-1);
    expect(stateOf(last), JSON.stringify(last)).toBe("TASK_STATE_FAILED");
    expect(textOf(last)).toContain(ABANDONED_REASON);
  });

  it("tasks/get on another replica reads a task whose replica died as failed once its lease ran out", async () => {
    const victim = await startNotesProcess({ llm, dbName, env: lease });
    replicas.push(victim);
    const other = replicas[0] as AgentProcess;
    const { taskId } = await startTurn(victim, "stall again");
    await victim.kill("SIGKILL");
    const get = async () => {
      const response = await fetch(`${other.url}/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/get", params: { id: taskId } }),
      });
      return ((await response.json()) as Json).result;
    };
    // Running as stored: submitted, or working once the turn's start was written (within 250 ms).
    const running = ["submitted", "working"];
    expect(running).toContain(stateOf(await get()));
    let task: Json;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(200)) {
      task = await get();
      if (!running.includes(stateOf(task) ?? "")) break;
    }
    expect(stateOf(task)).toBe("failed");
    expect(textOf(task)).toContain(ABANDONED_REASON);
  });

  it("a task that is already over is answered as before: the SDK's terminal-state error", async () => {
    const [running, other] = replicas as [AgentProcess, AgentProcess];
    const { taskId, rest } = await startTurn(running, "hello");
    await rest;
    await expect(collect(stream(other.url, "tasks/resubscribe", { id: taskId }), 5_000)).rejects.toThrow(
      /terminal state/,
    );
  });
});
