// A bare A2A agent for tests that need one other than Switchboard's own (a lying subagent, a hostile
// one, another stack's): @a2a-js/sdk's own request handler on Express, with JSON-RPC and HTTP+JSON at
// /a2a/jsonrpc and /a2a/rest and its card at /.well-known/agent-card.json, on a loopback port.
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type AgentCard, type Part, TaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import express from "express";

/** A server listening on loopback, and how to stop it (open connections closed too). */
export interface Listening {
  url: string;
  close(): Promise<void>;
}

/** Serves `app` on a free loopback port. */
export async function listenOnLoopback(app: express.Express): Promise<Listening> {
  const server = createServer(app);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A text part as the SDK's 1.0 types spell it. */
export const textPart = (text: string): Part => ({
  content: { $case: "text", value: text },
  metadata: undefined,
  filename: "",
  mediaType: "text/plain",
});

export interface SdkCardOptions {
  name: string;
  description: string;
  version?: string;
  /** Where its card says calls go (`<endpoint>/a2a/jsonrpc`, `<endpoint>/a2a/rest`): its own URL, or a lie. */
  endpoint: string;
  skills: Array<{ id: string; name: string; description: string; tags?: string[]; examples?: string[] }>;
}

/** An A2A 1.0 card with JSON-RPC and HTTP+JSON interfaces at `endpoint`, streaming, no security scheme. */
export function sdkCard(options: SdkCardOptions): AgentCard {
  const { name, description, version = "1.0.0", endpoint, skills } = options;
  return {
    name,
    description,
    version,
    provider: undefined,
    supportedInterfaces: [
      { url: `${endpoint}/a2a/jsonrpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
      { url: `${endpoint}/a2a/rest`, protocolBinding: "HTTP+JSON", tenant: "", protocolVersion: "1.0" },
    ],
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: skills.map((skill) => ({
      tags: [],
      examples: [],
      ...skill,
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    })),
    signatures: [],
  };
}

/** Publishes the task a message starts (submitted), unless it continues one. */
export function openTask(
  { taskId, contextId, userMessage, task }: RequestContext,
  bus: ExecutionEventBus,
): void {
  bus.publish(
    AgentEvent.task(
      task ?? {
        id: taskId,
        contextId,
        status: {
          state: TaskState.TASK_STATE_SUBMITTED,
          message: undefined,
          timestamp: new Date().toISOString(),
        },
        artifacts: [],
        history: [userMessage],
        metadata: undefined,
      },
    ),
  );
}

/** Ends the task with one artifact of `parts` and a completed status carrying `metadata`. */
export function completeTask(
  { taskId, contextId }: RequestContext,
  bus: ExecutionEventBus,
  answer: { parts: Part[]; artifactName?: string; metadata?: Record<string, unknown> },
): void {
  bus.publish(
    AgentEvent.artifactUpdate({
      taskId,
      contextId,
      append: false,
      lastChunk: true,
      metadata: undefined,
      artifact: {
        artifactId: randomUUID(),
        name: answer.artifactName ?? "final_result",
        description: "",
        parts: answer.parts,
        metadata: undefined,
        extensions: [],
      },
    }),
  );
  bus.publish(
    AgentEvent.statusUpdate({
      taskId,
      contextId,
      status: {
        state: TaskState.TASK_STATE_COMPLETED,
        message: undefined,
        timestamp: new Date().toISOString(),
      },
      metadata: answer.metadata,
    }),
  );
  bus.finished();
}

/** An executor that answers every message at once with `text` (and `metadata` on its last status). */
export function answerAtOnce(
  text: string,
  answer: { artifactName?: string; metadata?: Record<string, unknown> } = {},
): AgentExecutor {
  return {
    async execute(context, bus) {
      openTask(context, bus);
      completeTask(context, bus, { parts: [textPart(text)], ...answer });
    },
    async cancelTask() {},
  };
}

export interface SdkAgentOptions {
  /** Its card, given the URL it listens on. */
  card(url: string): AgentCard;
  executor: AgentExecutor;
  /** Middleware before the A2A routes (a recorder, say). */
  before?: (app: express.Express) => void;
  /** Routes after them. */
  after?: (app: express.Express) => void;
  /** Whether 0.3 clients are served too (the SDK's legacy compatibility). */
  legacyCompat?: boolean;
}

/** Starts the agent on a free loopback port. */
export async function startSdkAgent(options: SdkAgentOptions): Promise<Listening> {
  const app = express();
  options.before?.(app);
  // Listening first: the card may name the port it got. Routes added after are served all the same.
  const listening = await listenOnLoopback(app);
  const requestHandler = new DefaultRequestHandler(
    options.card(listening.url),
    new InMemoryTaskStore(),
    options.executor,
  );
  const compat = options.legacyCompat ? { legacyCompat: { enabled: true } } : {};
  const userBuilder = UserBuilder.noAuthentication;
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: requestHandler, ...compat }));
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler, userBuilder, ...compat }));
  app.use("/a2a/rest", restHandler({ requestHandler, userBuilder, ...compat }));
  options.after?.(app);
  return listening;
}
