import { ToolMessage } from "@langchain/core/messages";
import { isGraphInterrupt } from "@langchain/langgraph";
import { getLogger, isSwitchboardError, type Logger } from "@switchboard/common";
import { createMiddleware } from "langchain";
import { failureKind, readableMessage } from "../turn/failure.js";

/** Tool output beyond this is cut before it reaches the model (and the checkpoint). */
export const MAX_TOOL_RESULT_CHARS = 8_000;

/**
 * A tool's result cut to size, and a tool's failure as the model (and through it the user) reads
 * it: `<tool> failed: <message>` when the message is for people (a SwitchboardError's, a vendor's
 * status and words, a schema's refusal, a sentence a tool wrote: turn/failure.ts, readableMessage),
 * else `<tool> failed (<code or class>)` with the detail in the log only: never a stack trace or a
 * path of this machine. A configuration error (`user`) ends the turn with its message.
 */
export function toolResultsFor(logger?: Logger) {
  return createMiddleware({
    name: "SwitchboardToolResults",
    wrapToolCall: async (request, handler) => {
      try {
        const result = await handler(request);
        return ToolMessage.isInstance(result) ? trimmed(result) : result;
      } catch (error) {
        if (isGraphInterrupt(error)) throw error;
        if (isSwitchboardError(error) && error.category === "user") throw error;
        const tool = request.toolCall.name;
        const readable = readableMessage(error);
        (logger ?? getLogger()).warn({ tool, err: error }, "tool call failed");
        return new ToolMessage({
          content: readable ? `${tool} failed: ${readable}` : `${tool} failed (${failureKind(error)})`,
          tool_call_id: request.toolCall.id ?? "",
          name: tool,
          status: "error",
        });
      }
    },
  });
}

/** The same, logging to the process's logger: for a graph of an agent's own (guarded-tools.ts). */
export const toolResultsMiddleware = toolResultsFor();

/**
 * Cuts a tool result to MAX_TOOL_RESULT_CHARS: a text, or a list of blocks (an MCP tool's text,
 * images, resources), where blocks past the budget are left out and noted. An artifact past the
 * budget (an MCP tool's structured copy of its answer) is dropped: it would be stored as it is.
 */
function trimmed(message: ToolMessage): ToolMessage {
  if (message.artifact !== undefined && JSON.stringify(message.artifact).length > MAX_TOOL_RESULT_CHARS) {
    message.artifact = undefined;
  }
  const { content } = message;
  if (typeof content === "string") {
    if (content.length <= MAX_TOOL_RESULT_CHARS) return message;
    const omitted = content.length - MAX_TOOL_RESULT_CHARS;
    message.content = `${content.slice(0, MAX_TOOL_RESULT_CHARS)}\n[… ${omitted} more characters omitted]`;
    return message;
  }
  let budget = MAX_TOOL_RESULT_CHARS;
  let omitted = 0;
  const kept: typeof content = [];
  for (const block of content) {
    const text = block.type === "text" && typeof block.text === "string" ? block.text : undefined;
    const size = text?.length ?? JSON.stringify(block).length;
    if (size <= budget) {
      kept.push(block);
      budget -= size;
    } else if (text !== undefined && budget > 0) {
      kept.push({ type: "text", text: text.slice(0, budget) });
      omitted += size - budget;
      budget = 0;
    } else {
      omitted += size;
    }
  }
  if (omitted === 0) return message;
  kept.push({ type: "text", text: `\n[… ${omitted} more characters omitted]` });
  message.content = kept;
  return message;
}
