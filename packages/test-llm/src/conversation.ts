import type { ChatCompletionRequest, ChatMessage, MessageContent, ToolMessage } from "./types.js";

/** A tool result with the name of the tool that produced it (OpenAI tool messages carry only the call id). */
export interface ToolResult {
  name: string;
  content: string;
  toolCallId: string;
  args: Record<string, unknown>;
}

/** The text of a message's content; non-text parts are skipped. */
export function messageText(content: MessageContent | null | undefined): string {
  if (content == null) return "";
  if (typeof content === "string") return content;
  return content
    .map((part) => (part.type === "text" && typeof part.text === "string" ? part.text : ""))
    .join("");
}

export function lastMessage(request: ChatCompletionRequest): ChatMessage | undefined {
  return request.messages.at(-1);
}

/** The text of the newest user message, wherever it is in the conversation. */
export function lastUserText(request: ChatCompletionRequest): string | undefined {
  const message = request.messages.findLast((m) => m.role === "user");
  return message === undefined ? undefined : messageText(message.content);
}

/** The system (and developer) prompt text, so one server can tell apart agents that share it. */
export function systemText(request: ChatCompletionRequest): string {
  return request.messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .map((m) => messageText(m.content))
    .join("\n");
}

export function offeredToolNames(request: ChatCompletionRequest): string[] {
  return (request.tools ?? []).map((tool) => tool.function.name);
}

function parseArgs(json: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(json);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function resolveToolResult(messages: ChatMessage[], index: number, message: ToolMessage): ToolResult {
  for (let i = index - 1; i >= 0; i--) {
    const candidate = messages[i];
    if (candidate?.role !== "assistant") continue;
    const call = candidate.tool_calls?.find((c) => c.id === message.tool_call_id);
    if (call) {
      return {
        name: call.function.name,
        content: messageText(message.content),
        toolCallId: message.tool_call_id,
        args: parseArgs(call.function.arguments),
      };
    }
  }
  return { name: "", content: messageText(message.content), toolCallId: message.tool_call_id, args: {} };
}

/**
 * The tool results that end the conversation (one per parallel tool call), oldest first; empty when the
 * last message is not a tool result.
 */
export function trailingToolResults(request: ChatCompletionRequest): ToolResult[] {
  const { messages } = request;
  const results: ToolResult[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== "tool") break;
    results.unshift(resolveToolResult(messages, i, message));
  }
  return results;
}

/** The newest tool result anywhere in the conversation. */
export function lastToolResult(request: ChatCompletionRequest): ToolResult | undefined {
  const { messages } = request;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === "tool") return resolveToolResult(messages, i, message);
  }
  return undefined;
}
