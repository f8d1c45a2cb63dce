import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { CheckpointTuple } from "@langchain/langgraph";

/** What the model is told of a tool call whose turn stopped (a replica died) before it answered. */
export const LOST_RESULT =
  "This tool call was interrupted (the agent stopped while it ran) and its result was not kept. " +
  "It may or may not have taken effect: check before relying on it or repeating it.";

/**
 * What the model is told of a change call that was waiting for the user's confirmation in a pause
 * the agent can no longer resume (one asked by the human-in-the-loop step agents used to have).
 */
export const UNCONFIRMED_RESULT =
  "This change was not run and nothing was changed: it was waiting for the user's confirmation when " +
  "the agent was updated. If it is still wanted, call the tool again and the user will be asked again.";

/**
 * What the model is told of a change that was waiting for the user's decision when a new message
 * came that did not answer it (an answer names the asking task: turn/answer-pause.ts).
 */
export const UNANSWERED_RESULT =
  "This change was not run and nothing was changed: the user sent a new message instead of answering " +
  "its confirmation, and only their answer to that question runs it. Tell the user it was not run; if " +
  "it is still wanted, call the tool again and the user will be asked again.";

/**
 * Answers for the tool calls a thread's latest checkpoint leaves unanswered: a turn that died
 * between the model asking for tools and the tools' results being stored. Model providers refuse a
 * history with a tool call and no result, so the next turn puts these before its new message: a
 * result the dead turn did store (a pending write of a tool that finished) is kept, any other call
 * is answered with `lostResult` ({@link LOST_RESULT}, or {@link UNCONFIRMED_RESULT} for a pause that
 * cannot be resumed).
 */
export function answersToLostToolCalls(
  tuple: CheckpointTuple | undefined,
  lostResult = LOST_RESULT,
): ToolMessage[] {
  const messages = tuple?.checkpoint.channel_values.messages;
  if (!Array.isArray(messages)) return [];
  const lastAsk = (messages as BaseMessage[]).findLastIndex((message) => AIMessage.isInstance(message));
  const ask = messages[lastAsk] as AIMessage | undefined;
  if (!ask?.tool_calls?.length) return [];

  const answered = new Set(
    (messages as BaseMessage[])
      .slice(lastAsk + 1)
      .filter((message) => ToolMessage.isInstance(message))
      .map((message) => message.tool_call_id),
  );
  const stored = new Map<string, ToolMessage>();
  for (const [, channel, value] of tuple?.pendingWrites ?? []) {
    if (channel !== "messages") continue;
    for (const message of [value].flat()) {
      if (ToolMessage.isInstance(message)) stored.set(message.tool_call_id, message);
    }
  }
  return ask.tool_calls
    .filter((call) => call.id !== undefined && !answered.has(call.id))
    .map((call) => {
      const id = call.id as string;
      return (
        stored.get(id) ??
        new ToolMessage({ tool_call_id: id, name: call.name, content: lostResult, status: "error" })
      );
    });
}
