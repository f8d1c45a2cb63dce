// A TypeScript A2A agent on @a2a-js/sdk 1.3.0 with v0.3 compatibility on, as Switchboard's agents run:
// the peer that the Python a2a-sdk 0.3 client talks to in the interop tests.
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { AgentCard, type Message, Role, TaskState } from "@a2a-js/sdk";
import { duplicateInterfacesForLegacy } from "@a2a-js/sdk/compat/v0_3";
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  type ExecutionEventBus,
  InMemoryTaskStore,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import express from "express";

export interface SeenRequest {
  contextId: string;
  taskId: string;
  text: string;
  requestedVersion: string | undefined;
}

export interface JsEchoAgent {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

const textPart = (text: string) => ({
  content: { $case: "text" as const, value: text },
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

const status = (state: TaskState, message?: Message) => ({
  state,
  message,
  timestamp: new Date().toISOString(),
});

class EchoExecutor implements AgentExecutor {
  constructor(private readonly seen: SeenRequest[]) {}

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage, task } = ctx;
    const text = userMessage.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");
    this.seen.push({ contextId, taskId, text, requestedVersion: ctx.context.requestedVersion });
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
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: status(TaskState.TASK_STATE_COMPLETED, agentMessage(`echo: ${text}`, taskId, contextId)),
        metadata: undefined,
      }),
    );
    bus.finished();
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: "",
        status: status(TaskState.TASK_STATE_CANCELED),
        metadata: undefined,
      }),
    );
    bus.finished();
  }
}

export async function startJsEchoAgent(): Promise<JsEchoAgent> {
  const app = express();
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const card = AgentCard.fromJSON({
    name: "js-echo",
    description: "Echoes text back",
    version: "0.1.0",
    capabilities: { streaming: true },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "echo", name: "Echo", description: "Echoes text back", tags: ["echo"] }],
  });
  // v0.3 callers are served only on interfaces that the card declares as 0.3.
  card.supportedInterfaces = duplicateInterfacesForLegacy(
    [{ url: `${base}/a2a/jsonrpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }],
    ["JSONRPC"],
  );

  const seen: SeenRequest[] = [];
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new EchoExecutor(seen));
  const legacyCompat = { enabled: true };
  app.use(
    "/.well-known/agent-card.json",
    agentCardHandler({ agentCardProvider: requestHandler, legacyCompat }),
  );
  app.use(
    "/a2a/jsonrpc",
    jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat }),
  );

  return {
    url: base,
    seen,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
