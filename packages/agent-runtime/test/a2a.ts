import { randomUUID } from "node:crypto";
import { Message, type Task, taskStateToJSON } from "@a2a-js/sdk";
import { type Client, ClientFactory, type RequestOptions } from "@a2a-js/sdk/client";

export async function clientFor(url: string): Promise<Client> {
  return new ClientFactory().createFromUrl(url);
}

export function userMessage(text: string, contextId: string, taskId = ""): Message {
  return Message.fromJSON({
    messageId: randomUUID(),
    role: "ROLE_USER",
    contextId,
    taskId,
    parts: [{ text }],
  });
}

export async function send(
  client: Client,
  text: string,
  contextId: string,
  taskId = "",
  options?: RequestOptions,
): Promise<Task> {
  const result = await client.sendMessage(
    {
      tenant: "",
      message: userMessage(text, contextId, taskId),
      configuration: undefined,
      metadata: undefined,
    },
    options,
  );
  if ("messageId" in result) throw new Error("expected a task, got a message");
  return result;
}

export function stateOf(task: Task): string {
  return taskStateToJSON(task.status?.state ?? 0);
}

export function statusText(task: Task): string {
  return (task.status?.message?.parts ?? [])
    .map((part) => (part.content?.$case === "text" ? part.content.value : ""))
    .join("");
}
