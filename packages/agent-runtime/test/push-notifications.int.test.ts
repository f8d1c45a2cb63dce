import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Message, SendMessageConfiguration } from "@a2a-js/sdk";
import { type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningAgent } from "../src/serve.js";
import { serveNotesAgent } from "./notes-agent.js";

// A2A push notifications against a real webhook server on loopback: configs set over both
// protocol versions and both bindings, stored in push_configs_notes, delivered with the config's
// authentication, retried when the webhook fails, and refused for internal addresses unless allowed.

const V1 = { "A2A-Version": "1.0" };

// biome-ignore lint/suspicious/noExplicitAny: wire JSON of many shapes, checked field by field
type Json = any;

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Json;
}

/** A webhook that records what it receives, answering each request with the next scripted status. */
class Webhook {
  readonly received: Delivery[] = [];
  attempts = 0;
  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly statuses: number[],
  ) {}

  static async start(statuses: number[] = []): Promise<Webhook> {
    let hook: Webhook | undefined;
    const server = createServer(async (req, res) => {
      let text = "";
      for await (const chunk of req) text += chunk;
      if (!hook) return;
      hook.attempts += 1;
      const status = hook.statuses.shift() ?? 200;
      if (status === 200) hook.received.push({ headers: req.headers, body: JSON.parse(text) });
      res.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    hook = new Webhook(
      server,
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/a2a`,
      statuses,
    );
    return hook;
  }

  /** Waits until a delivery says the task completed (v0.3 or v1.0 body). */
  async completion(taskId: string, timeoutMs = 15_000): Promise<Delivery> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find((delivery) => completes(delivery.body, taskId));
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no completion for ${taskId}: ${JSON.stringify(this.received.map((d) => d.body))}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function completes(body: Json, taskId: string): boolean {
  const task = body.task ?? (body.kind === "task" ? body : undefined);
  const status = body.statusUpdate ?? (body.kind === "status-update" ? body : undefined);
  const state =
    task?.id === taskId ? task.status?.state : status?.taskId === taskId ? status.status?.state : undefined;
  return state === "completed" || state === "TASK_STATE_COMPLETED";
}

const legacyMessage = (contextId: string) => ({
  kind: "message",
  role: "user",
  messageId: randomUUID(),
  contextId,
  parts: [{ kind: "text", text: "hi" }],
});
const v1Message = (contextId: string) => ({
  role: "ROLE_USER",
  messageId: randomUUID(),
  contextId,
  parts: [{ text: "hi" }],
});

describe("push notifications", () => {
  const dbName = uniqueDbName("push");
  let llm: ScriptedLlm;
  let mongo: MongoClient;
  let db: Db;
  let agent: RunningAgent;

  const serve = (env: Record<string, string> = {}) => serveNotesAgent({ llm, dbName, env });

  beforeAll(async () => {
    llm = await startScriptedLlm({ script: () => say("noted") });
    mongo = await MongoClient.connect(testMongoUri());
    db = mongo.db(dbName);
    // The webhooks in this test listen on loopback: this agent may reach them.
    agent = await serve({ PUSH_NOTIFICATIONS_ALLOW_PRIVATE_NETWORKS: "true" });
  });
  afterAll(async () => {
    await agent?.close();
    await db?.dropDatabase();
    await mongo?.close();
    await llm?.close();
  });

  async function rpc(target: RunningAgent, method: string, params: unknown, headers = {}): Promise<Json> {
    const response = await fetch(`${target.url}/`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: randomUUID(), method, params }),
    });
    return response.json();
  }

  const configCount = () => db.collection("push_configs_notes").countDocuments();

  /** A completed task of a new conversation, and its contextId. */
  async function completedTask(): Promise<{ taskId: string; contextId: string }> {
    const contextId = `push-${randomUUID()}`;
    const reply = await rpc(agent, "message/send", { message: legacyMessage(contextId) });
    expect(reply.result?.status?.state).toBe("completed");
    return { taskId: reply.result.id, contextId };
  }

  it("declares push notifications on its card", async () => {
    const card: Json = await (await fetch(`${agent.url}/.well-known/agent-card.json`)).json();
    expect(card.capabilities.pushNotifications).toBe(true);
  });

  it("posts a v0.3 task's updates to the webhook its message/send named, with the config's credentials", async () => {
    const hook = await Webhook.start();
    try {
      const reply = await rpc(agent, "message/send", {
        message: legacyMessage(`push-${randomUUID()}`),
        configuration: {
          blocking: true,
          pushNotificationConfig: {
            url: hook.url,
            authentication: { schemes: ["Bearer"], credentials: "hook-secret" },
          },
        },
      });
      const taskId = reply.result.id;
      const delivery = await hook.completion(taskId);
      expect(delivery.headers.authorization).toBe("Bearer hook-secret");
      expect(delivery.body.kind, "a v0.3 body for a webhook registered over v0.3").toBeDefined();
    } finally {
      await hook.close();
    }
  });

  it("keeps a webhook set over gRPC for v1.0 bodies, though gRPC clients send no A2A-Version", async () => {
    // The SDK's gRPC transport alone, as other stacks' clients call (its Client adds A2A-Version).
    const { GrpcTransportFactory } = await import("@a2a-js/sdk/client/grpc");
    const client = await new GrpcTransportFactory().create(agent.grpcUrl as string, {} as never);
    const hook = await Webhook.start();
    try {
      // Set with the message, and on its own for a task that exists (the SDK's two paths).
      const answer = await client.sendMessage({
        tenant: "",
        message: Message.fromJSON(v1Message(`push-${randomUUID()}`)),
        configuration: SendMessageConfiguration.fromJSON({
          taskPushNotificationConfig: { id: "with-message", url: hook.url, token: "grpc-token" },
        }),
        metadata: undefined,
      });
      const taskId = "id" in answer ? answer.id : "";
      expect((await hook.completion(taskId)).body.kind, "a v1.0 StreamResponse").toBeUndefined();
      await client.createTaskPushNotificationConfig({
        tenant: "",
        taskId,
        id: "on-its-own",
        url: hook.url,
        token: "",
        authentication: undefined,
      });
      const stored = await db
        .collection("push_configs_notes")
        .find({ taskId })
        .project({ _id: 0, wireVersion: 1 })
        .toArray();
      expect(stored).toEqual([{ wireVersion: "1.0" }, { wireVersion: "1.0" }]);
    } finally {
      await hook.close();
    }
  });

  it("posts a v1.0 task's updates in v1.0 bodies, with the token header when no authentication is set", async () => {
    const hook = await Webhook.start();
    try {
      const reply = await rpc(
        agent,
        "SendMessage",
        {
          message: v1Message(`push-${randomUUID()}`),
          configuration: { taskPushNotificationConfig: { url: hook.url, token: "per-task-token" } },
        },
        V1,
      );
      const taskId = reply.result.task.id;
      const delivery = await hook.completion(taskId);
      expect(delivery.headers["x-a2a-notification-token"]).toBe("per-task-token");
      expect(delivery.headers.authorization).toBeUndefined();
      expect(delivery.body.kind, "a v1.0 StreamResponse, not a v0.3 event").toBeUndefined();
    } finally {
      await hook.close();
    }
  });

  it("tries a failing webhook again with backoff until it takes the update", async () => {
    const hook = await Webhook.start([500, 503]);
    try {
      const reply = await rpc(agent, "message/send", {
        message: legacyMessage(`push-${randomUUID()}`),
        configuration: { pushNotificationConfig: { url: hook.url } },
      });
      await hook.completion(reply.result.id);
      expect(hook.attempts).toBeGreaterThanOrEqual(hook.received.length + 2);
    } finally {
      await hook.close();
    }
  });

  it("keeps configs set over either version in MongoDB, listed, read and deleted by the caller, across a restart", async () => {
    const { taskId } = await completedTask();
    const v03 = await rpc(agent, "tasks/pushNotificationConfig/set", {
      taskId,
      pushNotificationConfig: { id: "legacy", url: "https://hooks.example.com/legacy" },
    });
    expect(v03.result?.pushNotificationConfig?.url, JSON.stringify(v03)).toBe(
      "https://hooks.example.com/legacy",
    );
    const v1 = await rpc(
      agent,
      "CreateTaskPushNotificationConfig",
      { taskId, url: "https://hooks.example.com/v1", authentication: { scheme: "Bearer", credentials: "c" } },
      V1,
    );
    const v1Id = v1.result?.id;
    expect(v1Id, JSON.stringify(v1)).toBeTruthy();

    await agent.close();
    agent = await serve({ PUSH_NOTIFICATIONS_ALLOW_PRIVATE_NETWORKS: "true" });

    const listed = await rpc(agent, "ListTaskPushNotificationConfigs", { taskId }, V1);
    expect(listed.result.configs.map((config: Json) => config.url).sort()).toEqual([
      "https://hooks.example.com/legacy",
      "https://hooks.example.com/v1",
    ]);
    const got = await rpc(agent, "GetTaskPushNotificationConfig", { taskId, id: v1Id }, V1);
    expect(got.result).toMatchObject({
      url: "https://hooks.example.com/v1",
      authentication: { scheme: "Bearer" },
    });
    const legacyList = await rpc(agent, "tasks/pushNotificationConfig/list", { id: taskId });
    expect(legacyList.result).toHaveLength(2);

    await rpc(agent, "tasks/pushNotificationConfig/delete", {
      id: taskId,
      pushNotificationConfigId: "legacy",
    });
    await rpc(agent, "DeleteTaskPushNotificationConfig", { taskId, id: v1Id }, V1);
    expect(
      (await rpc(agent, "ListTaskPushNotificationConfigs", { taskId }, V1)).result.configs ?? [],
    ).toEqual([]);
  });

  it("deletes a conversation's push configs with the conversation", async () => {
    const { taskId, contextId } = await completedTask();
    await rpc(agent, "tasks/pushNotificationConfig/set", {
      taskId,
      pushNotificationConfig: { url: "https://hooks.example.com/gone" },
    });
    expect(await db.collection("push_configs_notes").countDocuments({ taskId })).toBe(1);
    const deleted = await fetch(`${agent.url}/conversations/${contextId}`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(await db.collection("push_configs_notes").countDocuments({ taskId })).toBe(0);
  });

  // Last: in-process agents share the process's checkpointer, which closing one of them closes.
  it("refuses webhooks on loopback, link-local and private networks, and odd schemes, storing nothing", async () => {
    await agent.close();
    agent = await serve();
    const guarded = agent;
    const reply = await rpc(guarded, "message/send", { message: legacyMessage(`push-${randomUUID()}`) });
    const taskId = reply.result.id;
    const before = await configCount();
    const tasksBefore = await db.collection("tasks_notes").countDocuments();
    const urls = [
      "http://127.0.0.1:8080/hook",
      "http://localhost/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://10.1.2.3/hook",
      "http://192.168.0.7/hook",
      "http://[::1]:8080/hook",
      "http://[::ffff:127.0.0.1]/hook",
      "ftp://hooks.example.com/hook",
    ];
    for (const url of urls) {
      const set = await rpc(guarded, "tasks/pushNotificationConfig/set", {
        taskId,
        pushNotificationConfig: { url },
      });
      expect(set.error?.code, `${url}: ${JSON.stringify(set)}`).toBe(-32602);
      const create = await rpc(guarded, "CreateTaskPushNotificationConfig", { taskId, url }, V1);
      expect(create.error?.code, url).toBe(-32602);
      const rest = await fetch(`${guarded.url}/rest/tasks/${taskId}/pushNotificationConfigs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ taskId, url }),
      });
      expect(rest.status, url).toBe(400);
      const send = await rpc(guarded, "message/send", {
        message: legacyMessage(`push-${randomUUID()}`),
        configuration: { pushNotificationConfig: { url } },
      });
      expect(send.error?.code, url).toBe(-32602);
    }
    for (const [method, params, headers] of [
      [
        "tasks/pushNotificationConfig/set",
        {
          taskId,
          pushNotificationConfig: { url: "https://hooks.example.com/a", authentication: { schemes: [] } },
        },
        {},
      ],
      [
        "CreateTaskPushNotificationConfig",
        { taskId, url: "https://hooks.example.com/a", authentication: { credentials: "c" } },
        V1,
      ],
    ] as const) {
      const reply = await rpc(guarded, method, params, headers);
      expect(reply.error?.code, JSON.stringify(reply)).toBe(-32602);
      expect(reply.error.message).toMatch(/push notification authentication/);
    }
    const refused = await rpc(guarded, "tasks/pushNotificationConfig/set", {
      taskId,
      pushNotificationConfig: { url: "http://169.254.169.254/latest/meta-data?token=s3cret" },
    });
    expect(refused.error.message).toContain("PUSH_NOTIFICATIONS_ALLOW_PRIVATE_NETWORKS=true");
    expect(refused.error.message).not.toContain("s3cret");
    expect(await configCount()).toBe(before);
    expect(await db.collection("tasks_notes").countDocuments()).toBe(tasksBefore);
  });
});
