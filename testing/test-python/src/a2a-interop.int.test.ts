import { randomUUID } from "node:crypto";
import { Message, type Task, TaskState } from "@a2a-js/sdk";
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from "@a2a-js/sdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type JsEchoAgent, startJsEchoAgent } from "../test/js-echo-agent.js";
import { type PythonA2aAgent, startPythonA2aAgent } from "./a2a-agent.js";
import { runPythonA2aClient } from "./a2a-client.js";

describe("Python a2a-sdk 0.3 client -> TypeScript agent (@a2a-js/sdk 1.3.0, v0.3 compat)", () => {
  let agent: JsEchoAgent;
  beforeAll(async () => {
    agent = await startJsEchoAgent();
  });
  afterAll(() => agent?.close());

  it("gets the echo back in a completed task that keeps the caller's contextId", async () => {
    const contextId = `caipe-${randomUUID()}`;
    const result = await runPythonA2aClient({ url: agent.url, text: "hello from python", contextId });

    expect(result.contextId).toBe(contextId);
    expect(result.state).toBe("completed");
    expect(result.text).toBe("echo: hello from python");
    expect(result.raw).toMatchObject({ kind: "task", id: result.taskId, contextId });
    // The TypeScript agent saw a v0.3 call carrying the same conversation id.
    expect(agent.seen.at(-1)).toEqual({
      contextId,
      taskId: result.taskId,
      text: "hello from python",
      requestedVersion: "0.3",
    });
  });

  it("keeps one contextId across turns, with a new task per turn", async () => {
    const contextId = `caipe-${randomUUID()}`;
    const first = await runPythonA2aClient({ url: agent.url, text: "turn one", contextId });
    const second = await runPythonA2aClient({ url: agent.url, text: "turn two", contextId });

    expect([first.contextId, second.contextId]).toEqual([contextId, contextId]);
    expect(second.taskId).not.toBe(first.taskId);
    expect(second.text).toBe("echo: turn two");
  });
});

describe("TypeScript client (@a2a-js/sdk 1.3.0, legacy compat) -> Python a2a-sdk 0.3 agent", () => {
  let agent: PythonA2aAgent;
  let client: Client;

  beforeAll(async () => {
    agent = await startPythonA2aAgent({ name: "weather", description: "Python weather agent" });
    const legacyCompat = { enabled: true };
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        cardResolver: new DefaultAgentCardResolver({ legacyCompat }),
        transports: [
          new JsonRpcTransportFactory({ legacyCompat }),
          new RestTransportFactory({ legacyCompat }),
        ],
      }),
    );
    client = await factory.createFromUrl(agent.url);
  });
  afterAll(() => agent?.stop());

  it("reads the Python agent's card and speaks v0.3 to it", async () => {
    const card = await client.getAgentCard();
    expect(card.name).toBe("weather");
    expect(card.description).toBe("Python weather agent");
    expect(card.skills.map((skill) => skill.id)).toEqual(["echo"]);
    expect(client.protocolVersion).toBe("0.3");
  });

  it("gets '<name> echo: <text>' back, and the agent recorded the forwarded contextId and metadata", async () => {
    const contextId = `supervisor-${randomUUID()}`;
    const message = Message.fromJSON({
      messageId: randomUUID(),
      role: "ROLE_USER",
      contextId,
      parts: [{ text: "what's the weather?" }],
      metadata: { forwardedBy: "supervisor" },
    });
    const result = await client.sendMessage({
      tenant: "",
      message,
      configuration: undefined,
      metadata: undefined,
    });

    expect("messageId" in result).toBe(false);
    const task = result as Task;
    expect(task.contextId).toBe(contextId);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const reply = task.status?.message?.parts.map((p) =>
      p.content?.$case === "text" ? p.content.value : "",
    );
    expect(reply).toEqual(["weather echo: what's the weather?"]);

    const received = await agent.received();
    expect(received.at(-1)).toMatchObject({
      contextId,
      taskId: task.id,
      text: "what's the weather?",
      metadata: { forwardedBy: "supervisor" },
    });
  });

  it("answers the Python client too (both helpers speak the same v0.3 wire)", async () => {
    const contextId = `py-${randomUUID()}`;
    const result = await runPythonA2aClient({ url: agent.url, text: "ping", contextId });
    expect(result).toMatchObject({ contextId, state: "completed", text: "weather echo: ping" });
    expect((await agent.received()).map((m) => m.contextId)).toContain(contextId);
  });
});

describe("TypeScript client (@a2a-js/sdk 1.3.0, no compat) -> Python a2a-sdk 1.x agent (A2A 1.0)", () => {
  let agent: PythonA2aAgent;
  let client: Client;
  const userMessage = (contextId: string, text: string) =>
    Message.fromJSON({
      messageId: randomUUID(),
      role: "ROLE_USER",
      contextId,
      parts: [{ text }],
      metadata: { context_id: contextId, forwardedBy: "supervisor" },
    });

  beforeAll(async () => {
    agent = await startPythonA2aAgent({ name: "Hello World Agent", description: "Echoes.", sdk: "1.x" });
    client = await new ClientFactory().createFromUrl(agent.url);
  });
  afterAll(() => agent?.stop());

  it("serves a 1.0 card with one JSON-RPC interface and streaming, and the client speaks 1.0", async () => {
    const card = await client.getAgentCard();
    expect(card.name).toBe("Hello World Agent");
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.supportedInterfaces).toEqual([
      expect.objectContaining({ protocolBinding: "JSONRPC", protocolVersion: "1.0", url: `${agent.url}/` }),
    ]);
    expect(client.protocolVersion).toBe("1.0");
  });

  it("answers SendMessage with '<name> echo: <text>' and records the contextId and metadata", async () => {
    const contextId = `supervisor-${randomUUID()}`;
    const result = await client.sendMessage({
      tenant: "",
      message: userMessage(contextId, "hello from typescript"),
      configuration: undefined,
      metadata: undefined,
    });

    expect("messageId" in result).toBe(false);
    const task = result as Task;
    expect(task.contextId).toBe(contextId);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const reply = task.status?.message?.parts.map((p) =>
      p.content?.$case === "text" ? p.content.value : "",
    );
    expect(reply).toEqual(["Hello World Agent echo: hello from typescript"]);
    expect((await agent.received()).at(-1)).toEqual({
      contextId,
      taskId: task.id,
      text: "hello from typescript",
      metadata: { context_id: contextId, forwardedBy: "supervisor" },
      requestMetadata: {},
    });
  });

  it("streams the task, the echo artifact and the completed status", async () => {
    const contextId = `stream-${randomUUID()}`;
    const events: string[] = [];
    for await (const event of client.sendMessageStream({
      tenant: "",
      message: userMessage(contextId, "stream me"),
      configuration: undefined,
      metadata: undefined,
    })) {
      const payload = event.payload;
      if (payload?.$case === "artifactUpdate") {
        const parts = payload.value.artifact?.parts ?? [];
        events.push(
          `artifact: ${parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("")}`,
        );
      } else if (payload?.$case === "statusUpdate") {
        events.push(`status: ${TaskState[payload.value.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED]}`);
      } else events.push(payload?.$case ?? "empty");
    }
    expect(events).toEqual([
      "task",
      "artifact: Hello World Agent echo: stream me",
      "status: TASK_STATE_COMPLETED",
    ]);
    expect((await agent.received()).at(-1)).toMatchObject({ contextId, text: "stream me" });
  });

  it("refuses v0.3 JSON-RPC: it speaks A2A 1.0 only", async () => {
    const response = await fetch(`${agent.url}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "message/send",
        params: { message: { kind: "message", messageId: randomUUID(), role: "user", parts: [] } },
      }),
    });
    expect(await response.json()).toMatchObject({ error: { code: -32601 } });
  });
});
