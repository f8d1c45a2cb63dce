import { randomBytes } from "node:crypto";
import { messageText } from "./conversation.js";
import type { ChatCompletionRequest, ScriptReply } from "./types.js";

/** A reply with every tool call given an id: what the server sends, in either wire format. */
export interface ResolvedReply {
  content: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  /** The provider withheld the answer (see `ScriptReply.filtered`). */
  filtered?: boolean;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
}

const SYSTEM_FINGERPRINT = "fp_switchboard_test";

function randomId(prefix: string, length: number): string {
  // Alphanumeric, as OpenAI's ids are.
  return prefix + randomBytes(length).toString("hex").slice(0, length);
}

export function completionId(): string {
  return randomId("chatcmpl-", 29);
}

export function resolveReply(reply: ScriptReply): ResolvedReply {
  if ("toolCalls" in reply) {
    if (reply.toolCalls.length === 0) {
      throw new Error(
        "a script reply had `toolCalls: []`; reply with `{ content }` when no tool should be called",
      );
    }
    return {
      ...(reply.filtered ? { filtered: true } : {}),
      content: reply.content ?? null,
      toolCalls: reply.toolCalls.map((call) => ({
        id: call.id ?? randomId("call_", 24),
        name: call.name,
        arguments: JSON.stringify(call.args),
      })),
    };
  }
  if (typeof reply?.content !== "string") {
    throw new Error(
      `a script returned ${JSON.stringify(reply)}; return { content: string } or { toolCalls: [{ name, args }] }`,
    );
  }
  return { content: reply.content, toolCalls: [], ...(reply.filtered ? { filtered: true } : {}) };
}

// A fixed ~4 characters per token: deterministic, and close enough for budget and metrics assertions.
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function usageFor(request: ChatCompletionRequest, reply: ResolvedReply): Usage {
  let promptText = "";
  for (const message of request.messages) {
    promptText += messageText(message.content);
    if (message.role === "assistant") {
      for (const call of message.tool_calls ?? []) promptText += call.function.name + call.function.arguments;
    }
  }
  if (request.tools) promptText += JSON.stringify(request.tools);
  const prompt = estimateTokens(promptText) + 3 * request.messages.length;
  const completion = estimateTokens(
    (reply.content ?? "") + reply.toolCalls.map((c) => c.name + c.arguments).join(""),
  );
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function finishReason(reply: ResolvedReply): "stop" | "tool_calls" | "content_filter" {
  if (reply.filtered) return "content_filter";
  return reply.toolCalls.length > 0 ? "tool_calls" : "stop";
}

/** The non-streaming `chat.completion` object, field for field as OpenAI sends it. */
export function chatCompletion(
  request: ChatCompletionRequest,
  reply: ResolvedReply,
  id: string,
  created: number,
) {
  const message: Record<string, unknown> = {
    role: "assistant",
    content: reply.content,
    refusal: null,
    annotations: [],
  };
  if (reply.toolCalls.length > 0) {
    message.tool_calls = reply.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id,
    object: "chat.completion",
    created,
    model: request.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(reply) }],
    usage: usageFor(request, reply),
    service_tier: "default",
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}

/** Words with their trailing whitespace, so streamed tokens concatenate back to the exact text. */
export function splitIntoTokens(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

function splitArguments(json: string): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < json.length; i += 8) pieces.push(json.slice(i, i + 8));
  return pieces;
}

/**
 * The `chat.completion.chunk` objects of a streamed reply, in OpenAI's order: a role chunk, content
 * tokens, per tool call a header (index, id, name) then argument fragments, a finish_reason chunk and,
 * when `stream_options.include_usage` is set, a usage chunk with empty choices.
 */
export function completionChunks(
  request: ChatCompletionRequest,
  reply: ResolvedReply,
  id: string,
  created: number,
) {
  const includeUsage = request.stream_options?.include_usage === true;
  const base = {
    id,
    object: "chat.completion.chunk",
    created,
    model: request.model,
    service_tier: "default",
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });

  const chunks: object[] = [];
  const hasToolCalls = reply.toolCalls.length > 0;
  chunks.push(
    chunk({ role: "assistant", content: hasToolCalls && reply.content === null ? null : "", refusal: null }),
  );
  for (const token of splitIntoTokens(reply.content ?? "")) chunks.push(chunk({ content: token }));
  reply.toolCalls.forEach((call, index) => {
    chunks.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
      }),
    );
    for (const piece of splitArguments(call.arguments)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, finishReason(reply)));
  if (includeUsage) chunks.push({ ...base, choices: [], usage: usageFor(request, reply) });
  return chunks;
}
