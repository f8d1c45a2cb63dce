import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger } from "@switchboard/common";
import { freePort } from "@switchboard/vitest-config/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EchoAgent, startEchoAgent } from "../test/echo-agent.js";
import { connectAgent } from "./client.js";
import { A2ACallError } from "./errors.js";
import { collectTurn } from "./turn.js";
import type { TurnEvent } from "./types.js";

const logger = createLogger({ level: "silent" });

let agent: EchoAgent;
beforeAll(async () => {
  agent = await startEchoAgent();
});
afterAll(async () => {
  await agent.close();
});

async function drain(events: AsyncIterable<TurnEvent>): Promise<TurnEvent[]> {
  const all: TurnEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe("connectAgent", () => {
  it("summarizes the card and prefers JSON-RPC v1.0", async () => {
    const conn = await connectAgent(agent.baseUrl, { logger });
    expect(conn.card).toEqual({
      name: "echo",
      description: "Echoes text back",
      skills: [
        {
          id: "echo",
          name: "Echo",
          description: "Repeats what you say",
          examples: ["hello"],
          tags: ["test"],
        },
      ],
      url: `${agent.baseUrl}/a2a/jsonrpc`,
      protocolVersion: "1.0",
      streaming: true,
    });
  });

  it("accepts the card URL itself as the agent URL", async () => {
    const conn = await connectAgent(`${agent.baseUrl}/.well-known/agent-card.json`, { logger });
    expect(conn.baseUrl).toBe(agent.baseUrl);
    expect(conn.card.name).toBe("echo");
  });

  it("sends the contextId verbatim and as metadata.context_id, keeping the caller's metadata", async () => {
    const conn = await connectAgent(agent.baseUrl, { logger });
    const result = await conn.send({
      text: "hello",
      contextId: "conv-42:ä/x",
      metadata: { user_email: "a@b.c" },
    });
    expect(result).toMatchObject({ contextId: "conv-42:ä/x", state: "completed", text: "echo: hello" });
    expect(result.artifacts).toEqual(["echo: hello"]);
    const call = agent.received.at(-1);
    expect(call?.contextId).toBe("conv-42:ä/x");
    expect(call?.metadata).toEqual({ user_email: "a@b.c", context_id: "conv-42:ä/x" });
  });

  it("starts a new conversation when no contextId is given, with both places agreeing", async () => {
    const conn = await connectAgent(agent.baseUrl, { logger });
    const result = await conn.send({ text: "hi" });
    const call = agent.received.at(-1);
    expect(result.contextId).toMatch(/^[0-9a-f-]{36}$/);
    expect(call?.contextId).toBe(result.contextId);
    expect(call?.metadata?.context_id).toBe(result.contextId);
  });

  it("sends the connection token as a bearer header, and a call's token overrides it", async () => {
    const conn = await connectAgent(agent.baseUrl, {
      logger,
      token: "conn-token",
      headers: { "X-Trace": "1" },
    });
    await conn.send({ text: "one" });
    expect(agent.received.at(-1)?.authorization).toBe("Bearer conn-token");
    await conn.send({ text: "two", token: "caller-token" });
    expect(agent.received.at(-1)?.authorization).toBe("Bearer caller-token");
  });

  it("streams status updates (with their text and metadata) before the artifact, then completes", async () => {
    const conn = await connectAgent(agent.baseUrl, { logger });
    const events = await drain(conn.stream({ text: "stream me", contextId: "ctx-stream" }));
    const kinds = events.map((e) => (e.kind === "status" ? `status:${e.state}` : e.kind));
    expect(kinds).toEqual(["task", "status:working", "status:working", "artifact", "status:completed"]);
    expect(events[0]).toMatchObject({ kind: "task", contextId: "ctx-stream", state: "submitted" });
    expect(events[2]).toMatchObject({
      kind: "status",
      text: "calling tool echo",
      metadata: { tool: "echo" },
    });
    expect(events[3]).toMatchObject({
      kind: "artifact",
      text: "echo: stream me",
      name: "final_result",
      lastChunk: true,
    });
  });

  it("collects a stream into the same result send() gives", async () => {
    const conn = await connectAgent(agent.baseUrl, { logger });
    const streamed = await collectTurn(conn.stream({ text: "same", contextId: "ctx-same" }));
    const sent = await conn.send({ text: "same", contextId: "ctx-same" });
    expect({ ...streamed, taskId: "" }).toEqual({ ...sent, taskId: "" });
  });

  it("returns the question on input-required and completes the same task on the follow-up", async () => {
    const conn = await connectAgent(agent.baseUrl, { logger, token: "user-a" });
    const first = await conn.send({ text: "ask me", contextId: "ctx-ask" });
    expect(first).toMatchObject({
      state: "input-required",
      question: "Which Jira project?",
      contextId: "ctx-ask",
    });
    const second = await conn.send({ text: "SRE", contextId: "ctx-ask", taskId: first.taskId });
    expect(second).toMatchObject({ taskId: first.taskId, state: "completed", text: "thanks, using SRE" });
    expect(agent.received.at(-1)).toMatchObject({ taskId: first.taskId, contextId: "ctx-ask" });
  });

  it("reads a finished task back with getTask", async () => {
    const conn = await connectAgent(agent.baseUrl, { logger, token: "user-b" });
    const sent = await conn.send({ text: "remember", contextId: "ctx-get" });
    const task = await conn.getTask(sent.taskId);
    expect(task).toEqual(sent);
  });

  it("reports a failed task as a result, not an exception", async () => {
    const conn = await connectAgent(agent.baseUrl, { logger });
    const result = await conn.send({ text: "fail now" });
    expect(result).toMatchObject({ state: "failed", text: "the tool exploded", artifacts: [] });
  });

  it("cancels a running task; the stream ends canceled", async () => {
    const conn = await connectAgent(agent.baseUrl, { logger, token: "user-c" });
    const seen: TurnEvent[] = [];
    let canceled: Awaited<ReturnType<typeof conn.cancel>> | undefined;
    for await (const event of conn.stream({ text: "slow job", contextId: "ctx-cancel" })) {
      seen.push(event);
      if (event.kind === "status" && event.state === "working") canceled = await conn.cancel(event.taskId);
    }
    expect(canceled).toMatchObject({ state: "canceled", contextId: "ctx-cancel" });
    expect(seen.at(-1)).toMatchObject({ kind: "status", state: "canceled" });
    const after = await conn.getTask(canceled?.taskId ?? "");
    expect(after.state).toBe("canceled");
  });

  it("turns a JSON-RPC error reply into a third-party SwitchboardError naming the agent and code", async () => {
    const conn = await connectAgent(agent.baseUrl, { logger, token: "secret-token-123" });
    const error = await conn.getTask("no-such-task").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(A2ACallError);
    const callError = error as A2ACallError;
    expect(callError).toMatchObject({
      name: "SwitchboardError",
      category: "third-party",
      code: "a2a.rpc_error",
      rpcCode: -32001,
    });
    expect(callError.message).toContain(`${agent.baseUrl}/a2a/jsonrpc`);
    expect(callError.message).toContain("-32001");
    expect(callError.message).toContain("no-such-task");
    expect(callError.message).not.toContain("secret-token-123");
  });

  it("does not see another caller's task (tasks are scoped by token)", async () => {
    const conn = await connectAgent(agent.baseUrl, { logger, token: "owner" });
    const sent = await conn.send({ text: "mine" });
    const error = await conn.getTask(sent.taskId, { token: "someone-else" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "a2a.rpc_error", rpcCode: -32001 });
  });

  it("yields the finished turn as events when the agent cannot stream", async () => {
    const blocking = await startEchoAgent({ streaming: false });
    try {
      const conn = await connectAgent(blocking.baseUrl, { logger });
      expect(conn.card.streaming).toBe(false);
      const events = await drain(conn.stream({ text: "ask it" }));
      expect(events.map((e) => e.kind)).toEqual(["task", "status"]);
      expect(events[1]).toMatchObject({ state: "input-required", text: "Which Jira project?" });
      const echo = await collectTurn(conn.stream({ text: "plain" }));
      expect(echo).toMatchObject({ state: "completed", text: "echo: plain" });
    } finally {
      await blocking.close();
    }
  });
});

describe("failures", () => {
  it("fails fast with the URL and ECONNREFUSED when nothing listens", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const started = Date.now();
    const error = await connectAgent(url, { logger, cardRetries: 0, token: "tok-xyz" }).catch(
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error).toMatchObject({
      code: "a2a.unreachable",
      category: "third-party",
      networkCode: "ECONNREFUSED",
    });
    expect((error as Error).message).toContain(url);
    expect((error as Error).message).toContain("ECONNREFUSED");
    expect((error as Error).message).not.toContain("tok-xyz");
  });

  it("names the agent when it goes away after connecting", async () => {
    const shortLived = await startEchoAgent();
    const conn = await connectAgent(shortLived.baseUrl, { logger });
    await shortLived.close();
    const error = await conn.send({ text: "anyone?" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "a2a.unreachable" });
    expect((error as Error).message).toContain(`${shortLived.baseUrl}/a2a/jsonrpc`);
  });

  it("retries the card while the agent starts, within the retry window", async () => {
    const port = await freePort();
    const connecting = connectAgent(`http://127.0.0.1:${port}`, { logger, cardRetries: 5 });
    await new Promise((resolve) => setTimeout(resolve, 700));
    const late = await startEchoAgent({ port });
    try {
      const conn = await connecting;
      expect(conn.card.name).toBe("echo");
      expect((await conn.send({ text: "late" })).text).toBe("echo: late");
    } finally {
      await late.close();
    }
  });

  it("sends a call again when it reached a replica that is shutting down (503 + Retry-After)", async () => {
    const draining = await startEchoAgent({ drainingCalls: 2 });
    try {
      const connection = await connectAgent(draining.baseUrl, { logger });
      const result = await connection.send({ text: "still there?" });
      expect(result.state).toBe("completed");
      // Refused twice unread, then taken once: nothing ran twice.
      expect(draining.refusedCalls).toBe(2);
      expect(draining.received.map((call) => call.text)).toEqual(["still there?"]);
    } finally {
      await draining.close();
    }
  });

  it("gives up on a replica that keeps draining, and passes a 503 without Retry-After through at once", async () => {
    // The first call and 3 more; without Retry-After, the first only.
    for (const [options, refused] of [
      [{ drainingCalls: 10 }, 4],
      [{ drainingCalls: 1, retryAfter: false }, 1],
    ] as const) {
      const draining = await startEchoAgent(options);
      try {
        const connection = await connectAgent(draining.baseUrl, { logger });
        await expect(connection.send({ text: "hello" })).rejects.toMatchObject({ httpStatus: 503 });
        expect(draining.received).toEqual([]);
        expect(draining.refusedCalls).toBe(refused);
      } finally {
        await draining.close();
      }
    }
  });

  it("reports a missing card with the card URL and HTTP status, without retrying", async () => {
    const error = await connectAgent(`${agent.baseUrl}/nowhere`, { logger }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "a2a.card_unavailable", httpStatus: 404 });
    expect((error as Error).message).toContain(`${agent.baseUrl}/nowhere/.well-known/agent-card.json`);
  });

  it("times out a silent agent and says so", async () => {
    const silent = createServer(() => {
      /* never answers */
    });
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const error = await connectAgent(url, { logger, timeoutMs: 300, cardRetries: 0 }).catch(
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: "a2a.timeout", category: "third-party" });
      expect((error as Error).message).toContain(url);
      expect((error as Error).message).toContain("300 ms");
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it("times out a stream that goes silent, after the events that did arrive", async () => {
    const conn = await connectAgent(agent.baseUrl, { logger, timeoutMs: 400 });
    const seen: TurnEvent[] = [];
    const error = await (async () => {
      for await (const event of conn.stream({ text: "slow stream" })) seen.push(event);
    })().catch((e: unknown) => e);
    expect(seen.map((e) => e.kind)).toEqual(["task", "status"]);
    expect(error).toMatchObject({ code: "a2a.timeout" });
    expect((error as Error).message).toContain("stream within 400 ms");
  });

  it("passes a caller's abort through unchanged", async () => {
    const conn = await connectAgent(agent.baseUrl, { logger });
    const controller = new AbortController();
    const pending = conn.send({ text: "slow abort", signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user pressed ctrl-c")), 100);
    await expect(pending).rejects.toThrow("user pressed ctrl-c");
  });
});

describe("v0.3 agents (CAIPE's Python a2a-sdk)", () => {
  it("talks v0.3 to a 0.3-only card and reaches the advertised 0.0.0.0 endpoint", async () => {
    const conn = await connectAgent(`${agent.baseUrl}/legacy`, { logger, token: "py-user" });
    expect(conn.card).toMatchObject({
      name: "legacy-echo",
      protocolVersion: "0.3",
      url: `${agent.baseUrl}/a2a/jsonrpc`,
      skills: [{ id: "echo", examples: ["hi"] }],
    });
    // CAIPE's agents refuse a context id that is not a UUID: a UUID goes verbatim.
    const pyCtx = "0b7c3f52-5d0e-4d8a-9a53-2f7e6c1d4b90";
    const result = await conn.send({ text: "hi from 0.3", contextId: pyCtx });
    expect(result).toMatchObject({ state: "completed", text: "echo: hi from 0.3", contextId: pyCtx });
    expect(agent.received.at(-1)).toMatchObject({
      version: "0.3",
      contextId: pyCtx,
      metadata: { context_id: pyCtx },
      authorization: "Bearer py-user",
    });
    const events = await drain(conn.stream({ text: "ask", contextId: pyCtx }));
    const last = events.at(-1);
    expect(last).toMatchObject({ kind: "status", state: "input-required", text: "Which Jira project?" });
    const taskId = last?.kind === "status" ? last.taskId : "";
    const followUp = await conn.send({ text: "OPS", contextId: pyCtx, taskId });
    expect(followUp).toMatchObject({ taskId, state: "completed", text: "thanks, using OPS" });
  });
});
