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

const SUMMARY_MARKER = "Messages to summarize:";

/**
 * True for the request an agent sends to summarize the older part of a conversation (langchain's
 * summarizationMiddleware prompt: one user message, the messages to summarize after a marker).
 */
export function isSummaryRequest(request: ChatCompletionRequest): boolean {
  const [only, ...rest] = request.messages;
  return rest.length === 0 && only?.role === "user" && messageText(only.content).includes(SUMMARY_MARKER);
}

/** The conversation text a summary request asks to summarize ("" for any other request). */
export function textToSummarize(request: ChatCompletionRequest): string {
  if (!isSummaryRequest(request)) return "";
  const text = messageText(request.messages[0]?.content);
  return text.slice(text.indexOf(SUMMARY_MARKER) + SUMMARY_MARKER.length);
}

/**
 * The request's conversation size as the agents estimate it (characters / 4): every message but the
 * system prompt, with tool-call arguments. A little under the agents' own count, which also counts
 * tool-call ids and names.
 */
export function conversationTokens(request: ChatCompletionRequest): number {
  let chars = 0;
  for (const message of request.messages) {
    if (message.role === "system" || message.role === "developer") continue;
    chars += messageText(message.content ?? "").length;
    if (message.role === "assistant") {
      for (const call of message.tool_calls ?? []) chars += call.function.arguments.length;
    }
  }
  return Math.ceil(chars / 4);
}

/**
 * What a provider would refuse about the request's tool messages: a tool result whose call is not
 * in the assistant message before it, or a tool call left without its result. Empty when paired.
 */
export function toolPairProblems(request: ChatCompletionRequest): string[] {
  const problems: string[] = [];
  let open = new Set<string>();
  for (const [index, message] of request.messages.entries()) {
    if (message.role === "tool") {
      if (!open.delete(message.tool_call_id)) {
        problems.push(`messages[${index}]: tool result ${message.tool_call_id} without its call before it`);
      }
      continue;
    }
    for (const id of open) problems.push(`messages[${index}]: tool call ${id} has no result`);
    open = new Set(message.role === "assistant" ? (message.tool_calls ?? []).map((call) => call.id) : []);
  }
  for (const id of open) problems.push(`tool call ${id} has no result`);
  return problems;
}

/**
 * What is wrong with the context each request sent the model: over the token budget, or a tool
 * result without its call (or the reverse). Empty when every request kept to the budget.
 */
export function contextProblems(requests: ChatCompletionRequest[], budget: number): string[] {
  return requests.flatMap((request, index) => {
    const tokens = conversationTokens(request);
    const overBudget = tokens < budget ? [] : [`request ${index}: ${tokens} tokens, budget ${budget}`];
    return [...overBudget, ...toolPairProblems(request).map((problem) => `request ${index}: ${problem}`)];
  });
}
