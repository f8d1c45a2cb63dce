import { TaskState } from "@a2a-js/sdk";
import { AIMessage, type BaseMessage, RemoveMessage, ToolMessage } from "@langchain/core/messages";
import type { TurnEvents } from "./turn-events.js";

/**
 * Reports a graph step's node updates as working-status progress: the model asking for a tool
 * ("Calling <tool>") and a tool answering ("<tool> done" or "failed"), with metadata naming them.
 */
export function reportToolActivity(agent: string, update: unknown, events: TurnEvents): void {
  const working = (text: string, metadata: Record<string, unknown>) =>
    events.status(TaskState.TASK_STATE_WORKING, text, { metadata });
  // A node that wrote one channel twice (an answer, then a rewritten history) has a list of updates.
  const values = Object.values(update as Record<string, unknown>).flat();
  for (const value of values as Array<{ messages?: unknown } | undefined>) {
    const messages = Array.isArray(value?.messages) ? (value.messages as BaseMessage[]) : [];
    // A rewritten history (a context summary followed by the messages kept) repeats old calls.
    if (messages.some((message) => RemoveMessage.isInstance(message))) continue;
    for (const message of messages) {
      if (AIMessage.isInstance(message)) {
        for (const call of message.tool_calls ?? []) {
          working(`Calling ${call.name}`, { kind: "tool-call", agent, tool: call.name });
        }
      } else if (ToolMessage.isInstance(message)) {
        const verb = message.status === "error" ? "failed" : "done";
        working(`${message.name ?? "tool"} ${verb}`, {
          kind: "tool-result",
          agent,
          tool: message.name,
          status: message.status,
        });
      }
    }
  }
}
