import { randomUUID } from "node:crypto";
import { taskStateToJSON } from "@a2a-js/sdk";
import { type Client, ClientFactory, type RequestOptions } from "@a2a-js/sdk/client";
import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";
import { connectAgent } from "@switchboard/a2a-client";
import { type Listening, startGrpcFirstCards } from "@switchboard-testing/test-agents";
import { type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import {
  callTool,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { generateKeyPair, SignJWT } from "jose";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningAgent } from "../src/serve.js";
import { SPEND_METADATA_KEY } from "../src/turn/budget.js";
import { send, stateOf, statusText, userMessage } from "./a2a.js";
import { serveNotesAgent } from "./notes-agent.js";

/** A client on the SDK's gRPC transport only: a call that reached the agent spoke gRPC. */
function grpcClientFor(url: string): Promise<Client> {
  return new ClientFactory({
    transports: [new GrpcTransportFactory()],
    preferredTransports: ["GRPC"],
  }).createFromUrl(url);
}

const as = (token: string): RequestOptions => ({ serviceParameters: { authorization: `Bearer ${token}` } });

/** The gRPC status code of a failed call, whatever error class the SDK wraps it in. */
async function grpcFailure(call: Promise<unknown>): Promise<{ code: unknown; message: string }> {
  try {
    await call;
  } catch (error) {
    const { code, message } = error as { code?: unknown; message: string };
    return { code, message };
  }
  throw new Error("the call succeeded");
}

describe("A2A over gRPC, beside JSON-RPC and HTTP+JSON", () => {
  const dbName = uniqueDbName("grpc");
  const notes: string[] = [];
  let idp: IdentityProvider;
  let llm: ScriptedLlm;
  let mongo: MongoClient;
  let agent: RunningAgent;
  let client: Client;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    idp = await startIdentityProvider({ users: { alice: { groups: ["plat"] }, bob: { groups: ["plat"] } } });
    llm = await startScriptedLlm({
      script: rules(
        [
          { lastUser: /add note (.+)/, reply: (_r, { match }) => callTool("add_note", { text: match?.[1] }) },
          { lastUser: /list notes/, reply: callTool("list_notes", {}) },
          { lastUser: /slow/, reply: callTool("slow_notes", {}) },
          { afterTool: true, reply: replyFromToolResult() },
        ],
        say("I can list and add notes."),
      ),
    });
    mongo = await MongoClient.connect(testMongoUri());
    for (const user of ["alice", "bob"]) tokens[user] = await signIn(idp, user);
    agent = await serveNotesAgent({
      llm,
      dbName,
      notes,
      env: {
        AUTH_MODE: "jwt",
        AUTH_JWKS_URL: idp.jwksUrl,
        AUTH_ISSUER: idp.issuer,
        AUTH_AUDIENCE: idp.audience,
      },
    });
    client = await grpcClientFor(agent.url);
  });
  afterAll(async () => {
    await agent?.close();
    await mongo?.db(dbName).dropDatabase();
    await Promise.all([mongo?.close(), llm?.close(), idp?.close()]);
  });

  it("advertises gRPC on its card, in protocol 1.0 and 0.3, on a port of its own", async () => {
    const card = (await (await fetch(`${agent.url}/.well-known/agent-card.json`)).json()) as {
      supportedInterfaces: Array<{ url: string; protocolBinding: string; protocolVersion: string }>;
    };
    const grpc = card.supportedInterfaces.filter((i) => i.protocolBinding === "GRPC");
    expect(grpc.map((i) => i.protocolVersion).sort()).toEqual(["0.3", "1.0"]);
    const port = agent.grpcUrl?.split(":").at(-1);
    expect(grpc[0]?.url).toBe(`localhost:${port}`);
    expect(port).not.toBe(new URL(agent.url).port);
    expect(client.protocolVersion).toBe("1.0");
  });

  it("answers a message as the signed-in user", async () => {
    const task = await send(client, "list notes", `ctx-${randomUUID()}`, "", as(tokens.alice as string));
    expect(stateOf(task)).toBe("TASK_STATE_COMPLETED");
    expect(statusText(task) || JSON.stringify(task.artifacts)).toContain("list_notes returned");
    // What the turn spent goes back with it on gRPC too, under the key every binding carries.
    expect(task.metadata?.[SPEND_METADATA_KEY]).toEqual({ model_calls: 2, tokens: expect.any(Number) });
  });

  it("streams a turn: the task, its working status, then its end", async () => {
    const states: string[] = [];
    let taskSeen = false;
    for await (const event of client.sendMessageStream(
      {
        tenant: "",
        message: userMessage("list notes", `ctx-${randomUUID()}`),
        configuration: undefined,
        metadata: undefined,
      },
      as(tokens.alice as string),
    )) {
      if (event.payload?.$case === "task") taskSeen = true;
      if (event.payload?.$case === "statusUpdate") {
        states.push(taskStateToJSON(event.payload.value.status?.state ?? 0));
      }
    }
    expect(taskSeen).toBe(true);
    expect(states).toContain("TASK_STATE_WORKING");
    expect(states.at(-1)).toBe("TASK_STATE_COMPLETED");
  });

  it("asks before a change and performs it once the asker answers yes", async () => {
    const contextId = `ctx-${randomUUID()}`;
    const asked = await send(client, "add note buy milk", contextId, "", as(tokens.alice as string));
    expect(stateOf(asked)).toBe("TASK_STATE_INPUT_REQUIRED");
    expect(statusText(asked)).toContain('Add the note "buy milk" to your notes?');
    expect(notes).toEqual([]);
    const done = await send(client, "yes", contextId, asked.id, as(tokens.alice as string));
    expect(stateOf(done)).toBe("TASK_STATE_COMPLETED");
    expect(done.id).toBe(asked.id);
    expect(notes).toEqual(["buy milk"]);
  });

  it("cancels a running turn, and reads the task back canceled", async () => {
    const contextId = `ctx-${randomUUID()}`;
    let taskId = "";
    const states: string[] = [];
    for await (const event of client.sendMessageStream(
      {
        tenant: "",
        message: userMessage("slow please", contextId),
        configuration: undefined,
        metadata: undefined,
      },
      as(tokens.alice as string),
    )) {
      const payload = event.payload;
      if (payload?.$case === "task") taskId = payload.value.id;
      if (payload?.$case === "statusUpdate") {
        states.push(taskStateToJSON(payload.value.status?.state ?? 0));
        const text = payload.value.status?.message?.parts[0]?.content;
        if (text?.$case === "text" && text.value === "still thinking") {
          await client.cancelTask(
            { tenant: "", id: taskId, metadata: undefined },
            as(tokens.alice as string),
          );
        }
      }
    }
    expect(states.at(-1)).toBe("TASK_STATE_CANCELED");
    const task = await client.getTask(
      { tenant: "", id: taskId, historyLength: undefined },
      as(tokens.alice as string),
    );
    expect(stateOf(task)).toBe("TASK_STATE_CANCELED");
  });

  it("refuses a call with no token, a malformed or a forged token, before anything is stored", async () => {
    const before = await mongo.db(dbName).collection("tasks_notes").countDocuments();
    const forger = await generateKeyPair("RS256");
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: "RS256", kid: "test-key" })
      .setSubject("alice")
      .setIssuer(idp.issuer)
      .setAudience(idp.audience)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(forger.privateKey);
    const message = {
      tenant: "",
      message: userMessage("add note pwned", `ctx-${randomUUID()}`),
      configuration: undefined,
      metadata: undefined,
    };
    for (const options of [undefined, as("not-a-jwt"), as(forged)]) {
      const failure = await grpcFailure(client.sendMessage(message, options));
      expect(failure.message).toMatch(/Unauthorized: /);
      const streamed = await grpcFailure(
        (async () => {
          for await (const _event of client.sendMessageStream(message, options)) {
            // nothing should arrive
          }
        })(),
      );
      expect(streamed.message).toMatch(/Unauthorized: /);
    }
    expect(await mongo.db(dbName).collection("tasks_notes").countDocuments()).toBe(before);
    expect(notes).not.toContain("pwned");
  });

  it("answers UNAUTHENTICATED as the gRPC status to a raw gRPC client", async () => {
    const grpc = await import("@grpc/grpc-js");
    const { A2AService } = await import("@a2a-js/sdk/server/grpc");
    const Raw = grpc.makeGenericClientConstructor(A2AService, "A2AService");
    const raw = new Raw(agent.grpcUrl as string, grpc.credentials.createInsecure()) as unknown as {
      getTask(
        request: unknown,
        metadata: InstanceType<typeof grpc.Metadata>,
        callback: (error: { code: number; details: string } | null) => void,
      ): void;
      close(): void;
    };
    const metadata = new grpc.Metadata();
    const error = await new Promise<{ code: number; details: string } | null>((resolve) =>
      raw.getTask({ tenant: "", id: "t1" }, metadata, resolve),
    );
    raw.close();
    expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
    expect(error?.details).toMatch(/^Unauthorized: a bearer token is required/);
  });

  it("keeps a user's task from another user: not found, and not cancelable", async () => {
    const contextId = `ctx-${randomUUID()}`;
    const asked = await send(client, "add note alice's secret", contextId, "", as(tokens.alice as string));
    const read = await grpcFailure(
      client.getTask({ tenant: "", id: asked.id, historyLength: undefined }, as(tokens.bob as string)),
    );
    expect(read.message).toMatch(/not found/i);
    const cancel = await grpcFailure(
      client.cancelTask({ tenant: "", id: asked.id, metadata: undefined }, as(tokens.bob as string)),
    );
    expect(cancel.message).toMatch(/not found/i);
    const mine = await client.getTask(
      { tenant: "", id: asked.id, historyLength: undefined },
      as(tokens.alice as string),
    );
    expect(stateOf(mine)).toBe("TASK_STATE_INPUT_REQUIRED");
  });

  it("refuses a message larger than MAX_REQUEST_BYTES, as the HTTP port does", async () => {
    const huge = await grpcFailure(
      send(client, "x".repeat(1024 * 1024 + 1), `ctx-${randomUUID()}`, "", as(tokens.alice as string)),
    );
    expect(huge.message).toMatch(/larger than max/i);
  });

  it("refuses a bad id and a push webhook to a private address, as the HTTP bindings do", async () => {
    const bad = await grpcFailure(
      client.getTask({ tenant: "", id: "x\u0000y", historyLength: undefined }, as(tokens.alice as string)),
    );
    expect(bad.message).toMatch(/Invalid params/);
    const asked = await send(client, "add note hook", `ctx-${randomUUID()}`, "", as(tokens.alice as string));
    const hook = await grpcFailure(
      client.createTaskPushNotificationConfig(
        {
          tenant: "",
          taskId: asked.id,
          id: "h1",
          url: "http://169.254.169.254/latest",
          token: "",
          authentication: undefined,
        },
        as(tokens.alice as string),
      ),
    );
    expect(hook.message).toMatch(/Invalid params: .*(private|public|address)/i);
  });

  it("refuses a message with no role and a page token it never gave, storing nothing (the A2A TCK's cases)", async () => {
    const contextId = `ctx-${randomUUID()}`;
    const roleless = { ...userMessage("list notes", contextId), role: 0 };
    const noRole = await grpcFailure(
      client.sendMessage(
        { tenant: "", message: roleless, configuration: undefined, metadata: undefined },
        as(tokens.alice as string),
      ),
    );
    expect(noRole.message).toMatch(/Invalid params: message\.role is required/);
    const list = { tenant: "", contextId, status: 0, pageSize: undefined, historyLength: undefined };
    const stored = await client.listTasks(
      { ...list, pageToken: "", statusTimestampAfter: undefined, includeArtifacts: undefined },
      as(tokens.alice as string),
    );
    expect(stored.tasks).toEqual([]);
    const forged = await grpcFailure(
      client.listTasks(
        { ...list, pageToken: "not-a-token", statusTimestampAfter: undefined, includeArtifacts: undefined },
        as(tokens.alice as string),
      ),
    );
    expect(forged.message).toMatch(/Invalid params: pageToken is not one this agent gave/);
  });

  it("keeps push configs per task and owner, as on the other bindings", async () => {
    const asked = await send(
      client,
      "add note hooked",
      `ctx-${randomUUID()}`,
      "",
      as(tokens.alice as string),
    );
    const config = {
      tenant: "",
      taskId: asked.id,
      id: "hook-1",
      url: "https://hooks.example.com/switchboard",
      token: "",
      authentication: undefined,
    };
    const saved = await client.createTaskPushNotificationConfig(config, as(tokens.alice as string));
    expect(saved.url).toBe(config.url);
    const listed = await client.listTaskPushNotificationConfig(
      { tenant: "", taskId: asked.id, pageSize: 0, pageToken: "" },
      as(tokens.alice as string),
    );
    expect(listed.configs.map((c) => c.id)).toEqual(["hook-1"]);
    const bobs = await grpcFailure(
      client.getTaskPushNotificationConfig(
        { tenant: "", taskId: asked.id, id: "hook-1" },
        as(tokens.bob as string),
      ),
    );
    expect(bobs.message).toMatch(/not found/i);
  });

  it("serves protocol 0.3 over gRPC too (CAIPE's Python agents), with the same token check", async () => {
    const { LegacyGrpcTransport } = await import("@a2a-js/sdk/compat/v0_3/client/grpc");
    const legacy = new LegacyGrpcTransport({ endpoint: agent.grpcUrl as string });
    const message = {
      tenant: "",
      message: userMessage("list notes", `ctx-${randomUUID()}`),
      configuration: undefined,
      metadata: undefined,
    };
    const answer = await legacy.sendMessage(message, as(tokens.alice as string));
    expect("status" in answer && stateOf(answer)).toBe("TASK_STATE_COMPLETED");
    const refused = await grpcFailure(legacy.sendMessage(message));
    expect(refused.message).toMatch(/Unauthorized: /);
  });

  describe("the supervisor's client", () => {
    // An agent whose card prefers gRPC: its own card, with its gRPC interfaces first.
    let cards: Listening;
    let cardsUrl: string;

    beforeAll(async () => {
      cards = await startGrpcFirstCards(agent.url);
      cardsUrl = cards.url;
    });
    afterAll(() => cards.close());

    it("speaks gRPC to a card that prefers it, with the caller's token", async () => {
      const connection = await connectAgent(cardsUrl, { token: tokens.alice as string, cardRetries: 0 });
      expect(connection.card.url).toBe(`127.0.0.1:${agent.grpcUrl?.split(":").at(-1)}`);
      const result = await connection.send({ text: "list notes", contextId: `ctx-${randomUUID()}` });
      expect(result.state).toBe("completed");
      expect(result.text).toContain("list_notes returned");
    });

    it("stays on JSON-RPC for the runtime's own card, which lists JSON-RPC first", async () => {
      const connection = await connectAgent(agent.url, { token: tokens.alice as string, cardRetries: 0 });
      expect(connection.card.url).toBe(`${agent.url}/`);
    });
  });
});

describe("a gRPC call while the agent drains", () => {
  let llm: ScriptedLlm;
  let agent: RunningAgent;

  beforeAll(async () => {
    llm = await startScriptedLlm({
      script: rules(
        [
          { lastUser: /slow/, reply: callTool("slow_notes", {}) },
          { afterTool: true, reply: replyFromToolResult() },
        ],
        say("I can list and add notes."),
      ),
    });
    agent = await serveNotesAgent({ llm, dbName: uniqueDbName("grpc-drain") });
  });
  afterAll(async () => {
    await agent?.close();
    await llm?.close();
  });

  it("turns new calls away UNAVAILABLE, and ends a running turn asking to send again", async () => {
    const client = await grpcClientFor(agent.url);
    const stream = client.sendMessageStream({
      tenant: "",
      message: userMessage("slow please", `ctx-${randomUUID()}`),
      configuration: undefined,
      metadata: undefined,
    });
    let drained: Promise<void> | undefined;
    let refused: { code: unknown; message: string } | undefined;
    const states: string[] = [];
    let last = "";
    for await (const event of stream) {
      if (event.payload?.$case !== "statusUpdate") continue;
      const status = event.payload.value.status;
      states.push(taskStateToJSON(status?.state ?? 0));
      const text = status?.message?.parts[0]?.content;
      last = text?.$case === "text" ? text.value : last;
      if (last === "still thinking" && !drained) {
        drained = agent.drain(300);
        refused = await grpcFailure(send(client, "hello", `ctx-${randomUUID()}`));
      }
    }
    await drained;
    expect(refused?.message).toMatch(/shutting down; send the request again/);
    expect(states.at(-1)).toBe("TASK_STATE_FAILED");
    expect(last).toMatch(/shut down before the turn finished; send the message again/);
  });
});
