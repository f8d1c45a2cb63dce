// A small real A2A agent for tests: @a2a-js/sdk server pieces on Express, v0.3 compat on. The one
// echo agent of the repo: test-python's interop tests serve it to the Python a2a-sdk 0.3 client too.
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type AgentCard, type Message, type Part, Role, TaskState, type TaskStatus } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
  type RequestHeaders,
  STATE_HEADERS_KEY,
  UnauthenticatedUser,
  type User,
} from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, restHandler, type UserBuilder } from "@a2a-js/sdk/server/express";
import express from "express";
import { messageText } from "../src/text.js";

export interface ReceivedCall {
  text: string;
  /** The task this call runs in (new, or the one it continues) and its conversation. */
  taskId: string;
  contextId: string;
  metadata: Record<string, unknown> | undefined;
  authorization: string | undefined;
  version: string | undefined;
}

export interface EchoAgent {
  baseUrl: string;
  port: number;
  received: ReceivedCall[];
  /** Calls answered as a draining replica (see `drainingCalls`). */
  readonly refusedCalls: number;
  close(): Promise<void>;
}

const textPart = (text: string): Part => ({
  content: { $case: "text", value: text },
  metadata: undefined,
  filename: "",
  mediaType: "text/plain",
});

const agentMessage = (text: string, taskId: string, contextId: string): Message => ({
  messageId: randomUUID(),
  role: Role.ROLE_AGENT,
  parts: [textPart(text)],
  taskId,
  contextId,
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

const status = (state: TaskState, message?: Message): TaskStatus => ({
  state,
  message,
  timestamp: new Date().toISOString(),
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Paths by the first word of the text: `ask` → input-required, answered on the follow-up turn;
 * `slow` → works until canceled; `fail` → failed; anything else → two working updates, then an
 * echo artifact and completed.
 */
class EchoExecutor implements AgentExecutor {
  private readonly canceled = new Set<string>();
  private readonly contexts = new Map<string, string>();

  constructor(private readonly received: ReceivedCall[]) {}

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage, task } = ctx;
    const text = messageText(userMessage);
    const headers = ctx.context.state.get(STATE_HEADERS_KEY) as RequestHeaders | undefined;
    const authorization = headers?.authorization;
    this.received.push({
      text,
      taskId,
      contextId,
      metadata: userMessage.metadata,
      authorization: Array.isArray(authorization) ? authorization.join(",") : authorization,
      version: ctx.context.requestedVersion,
    });
    this.contexts.set(taskId, contextId);
    const update = (state: TaskState, message?: string, metadata?: Record<string, unknown>) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: status(state, message === undefined ? undefined : agentMessage(message, taskId, contextId)),
          metadata,
        }),
      );
    const finish = (answer: string) => {
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          append: false,
          lastChunk: true,
          metadata: undefined,
          artifact: {
            artifactId: randomUUID(),
            name: "final_result",
            description: "",
            parts: [textPart(answer)],
            metadata: undefined,
            extensions: [],
          },
        }),
      );
      update(TaskState.TASK_STATE_COMPLETED);
      bus.finished();
    };

    const followUp = task?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED;
    bus.publish(
      AgentEvent.task(
        task ?? {
          id: taskId,
          contextId,
          status: status(TaskState.TASK_STATE_SUBMITTED),
          artifacts: [],
          history: [userMessage],
          metadata: undefined,
        },
      ),
    );
    if (followUp) {
      update(TaskState.TASK_STATE_WORKING, "reading your answer");
      finish(`thanks, using ${text}`);
      return;
    }
    if (text.startsWith("ask")) {
      update(TaskState.TASK_STATE_INPUT_REQUIRED, "Which Jira project?");
      bus.finished();
      return;
    }
    if (text.startsWith("fail")) {
      update(TaskState.TASK_STATE_FAILED, "the tool exploded");
      bus.finished();
      return;
    }
    if (text.startsWith("slow")) {
      update(TaskState.TASK_STATE_WORKING, "working slowly");
      for (let i = 0; i < 200 && !this.canceled.has(taskId); i++) await pause(25);
      return; // cancelTask published the final event
    }
    update(TaskState.TASK_STATE_WORKING, "thinking", { agent: "echo" });
    await pause(20);
    update(TaskState.TASK_STATE_WORKING, "calling tool echo", { agent: "echo", tool: "echo" });
    await pause(20);
    finish(`echo: ${text}`);
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    this.canceled.add(taskId);
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: this.contexts.get(taskId) ?? "",
        status: status(TaskState.TASK_STATE_CANCELED),
        metadata: undefined,
      }),
    );
    bus.finished();
  }
}

class BearerUser implements User {
  constructor(private readonly token: string) {}
  get isAuthenticated() {
    return true;
  }
  get userName() {
    return `bearer:${this.token}`;
  }
}

// Tasks are scoped per user name, as in a real agent: a token sees only its own tasks.
const userBuilder: UserBuilder = async (req) => {
  const header = req.header("authorization");
  return header?.startsWith("Bearer ") ? new BearerUser(header.slice(7)) : new UnauthenticatedUser();
};

function echoCard(baseUrl: string, streaming: boolean): AgentCard {
  return {
    name: "echo",
    description: "Echoes text back",
    version: "0.1.0",
    provider: undefined,
    supportedInterfaces: [
      { url: `${baseUrl}/a2a/jsonrpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
      { url: `${baseUrl}/a2a/rest`, protocolBinding: "HTTP+JSON", tenant: "", protocolVersion: "1.0" },
      { url: `${baseUrl}/a2a/jsonrpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "0.3" },
    ],
    capabilities: { streaming, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [
      {
        id: "echo",
        name: "Echo",
        description: "Repeats what you say",
        tags: ["test"],
        examples: ["hello"],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}

/** A card as a Python a2a-sdk 0.3 agent (CAIPE) serves it: one `url`, bound to 0.0.0.0. */
function legacyCard(port: number): Record<string, unknown> {
  return {
    name: "legacy-echo",
    description: "A v0.3 agent",
    url: `http://0.0.0.0:${port}/a2a/jsonrpc`,
    version: "0.1.0",
    protocolVersion: "0.3.0",
    preferredTransport: "JSONRPC",
    capabilities: { streaming: true, pushNotifications: false },
    securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    security: [{ bearer: [] }],
    defaultInputModes: ["text", "text/plain"],
    defaultOutputModes: ["text", "text/plain"],
    skills: [{ id: "echo", name: "Echo", description: "Repeats", tags: ["test"], examples: ["hi"] }],
  };
}

export async function startEchoAgent(
  options: {
    port?: number;
    streaming?: boolean;
    /** The first this many calls get a draining replica's answer (agent-runtime's): 503, Retry-After, Connection: close. */
    drainingCalls?: number;
    /** …and say Retry-After (default true). */
    retryAfter?: boolean;
  } = {},
): Promise<EchoAgent> {
  const app = express();
  let draining = options.drainingCalls ?? 0;
  let refused = 0;
  app.post("/a2a/*path", (_req, res, next) => {
    if (draining <= 0) return next();
    draining--;
    refused++;
    res
      .status(503)
      .set({ connection: "close", ...(options.retryAfter === false ? {} : { "retry-after": "1" }) })
      .json({ status: "draining", reason: "this replica is shutting down" });
  });
  const server: Server = createServer(app);
  server.listen(options.port ?? 0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  const received: ReceivedCall[] = [];
  const requestHandler = new DefaultRequestHandler(
    echoCard(baseUrl, options.streaming ?? true),
    new InMemoryTaskStore(),
    new EchoExecutor(received),
  );
  const legacyCompat = { enabled: true };
  app.use(
    "/.well-known/agent-card.json",
    agentCardHandler({ agentCardProvider: requestHandler, legacyCompat }),
  );
  app.get("/legacy/.well-known/agent-card.json", (_req, res) => {
    res.json(legacyCard(port));
  });
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler, userBuilder, legacyCompat }));
  app.use("/a2a/rest", restHandler({ requestHandler, userBuilder, legacyCompat }));
  return {
    baseUrl,
    port,
    received,
    get refusedCalls() {
      return refused;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
