import type { ResolvedReply } from "../completion.js";
import { contextNumbers, LlmHttpError } from "../errors.js";
import type { ChatMessage, ContentPart, ToolDefinition } from "../types.js";
import {
  type AnyResponse,
  argsOf,
  canonical,
  type Dialect,
  type DialectUsage,
  invalid,
  isRecord,
  modelNamed,
  parseJson,
  pieces,
  prefixLines,
  randomId,
  sendBody,
  toolCall,
  toolDefinition,
} from "./shared.js";
import { anthropicToolProblems } from "./tool-rules.js";

// Anthropic Messages API (POST /v1/messages), as documented at docs.anthropic.com/en/api/messages and
// /en/api/messages-streaming: x-api-key and anthropic-version headers, content blocks (text, tool_use,
// tool_result), SSE events message_start … message_stop, errors as {type:"error", error:{type, message}}.

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

type Block = Record<string, unknown>;

function blocks(content: unknown, where: string): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) throw invalid(`${where}.content: Input should be a valid list`);
  return content.map((block, index) => {
    if (!isRecord(block) || typeof block.type !== "string")
      throw invalid(`${where}.content.${index}: each content block needs a type`);
    return block;
  });
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b) => (isRecord(b) && b.type === "text" ? String(b.text ?? "") : "")).join("");
}

/** The tools, system prompt and messages in OpenAI's form; documented rules broken are a 400. */
function toCanonical(body: Record<string, unknown>) {
  const { model, messages, system, tools, max_tokens } = body;
  if (typeof model !== "string" || model === "") throw invalid("model: Field required");
  if (typeof max_tokens !== "number" || !Number.isInteger(max_tokens) || max_tokens < 1)
    throw invalid("max_tokens: Field required");
  if (!Array.isArray(messages) || messages.length === 0)
    throw invalid("messages: at least one message is required");

  const out: ChatMessage[] = [];
  if (system !== undefined) out.push({ role: "system", content: textOf(system) });
  const defs: ToolDefinition[] = [];
  if (tools !== undefined) {
    if (!Array.isArray(tools)) throw invalid("tools: Input should be a valid list");
    const problems = anthropicToolProblems(tools);
    if (problems.length > 0) throw invalid(problems.join("; "));
    for (const tool of tools as Block[])
      defs.push(toolDefinition(String(tool.name), tool.description, tool.input_schema));
  }

  let pending = new Set<string>();
  for (const [index, message] of (messages as unknown[]).entries()) {
    const where = `messages.${index}`;
    if (!isRecord(message) || (message.role !== "user" && message.role !== "assistant"))
      throw invalid(`${where}.role: Input should be 'user' or 'assistant'`);
    const content = blocks(message.content, where);
    if (message.role === "assistant") {
      if (pending.size > 0) throw unanswered(index - 1, pending);
      const text = content.filter((b) => b.type === "text").map((b) => String(b.text ?? ""));
      const calls = content.filter((b) => b.type === "tool_use");
      for (const call of calls) {
        if (typeof call.id !== "string" || typeof call.name !== "string")
          throw invalid(`${where}.content: tool_use blocks need id and name`);
      }
      pending = new Set(calls.map((c) => String(c.id)));
      out.push({
        role: "assistant",
        content: text.join("") || null,
        ...(calls.length > 0
          ? { tool_calls: calls.map((c) => toolCall(String(c.id), String(c.name), c.input)) }
          : {}),
      });
      continue;
    }
    const results = content.filter((b) => b.type === "tool_result");
    for (const result of results) {
      const id = String(result.tool_use_id);
      if (!pending.delete(id))
        throw invalid(
          `${where}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      out.push({ role: "tool", tool_call_id: id, content: textOf(result.content) });
    }
    if (pending.size > 0) throw unanswered(index - 1, pending);
    const rest = content.filter((b) => b.type !== "tool_result");
    if (rest.length > 0) out.push({ role: "user", content: rest as ContentPart[] });
  }
  if (pending.size > 0) throw unanswered(messages.length - 1, pending);
  return { model, messages: out, tools: defs };
}

function unanswered(index: number, ids: Set<string>): LlmHttpError {
  return invalid(
    `messages.${index + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${[...ids].join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
  );
}

/**
 * The request's blocks up to its last `cache_control` breakpoint, in Anthropic's cache order (tools,
 * system, messages), one JSON line each; undefined when the client marked none.
 */
function cachePrefix(body: Record<string, unknown>): string | undefined {
  const parts: unknown[] = [
    ...(Array.isArray(body.tools) ? body.tools : []),
    ...(Array.isArray(body.system) ? body.system : [body.system]),
  ];
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    const content = isRecord(message) ? message.content : undefined;
    if (Array.isArray(content)) parts.push(...content);
    else parts.push(content);
  }
  // A top-level cache_control (automatic caching) puts the breakpoint on the last block.
  const last = isRecord(body.cache_control)
    ? parts.length - 1
    : parts.findLastIndex((part) => isRecord(part) && part.cache_control !== undefined);
  return last < 0 ? undefined : prefixLines(parts.slice(0, last + 1));
}

function usageOf(usage: DialectUsage, output = usage.output) {
  return {
    input_tokens: usage.input - usage.cacheRead - usage.cacheWrite,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
    output_tokens: output,
    service_tier: "standard",
  };
}

function contentBlocks(reply: ResolvedReply): Block[] {
  const out: Block[] = [];
  if (reply.content) out.push({ type: "text", text: reply.content });
  for (const call of reply.toolCalls)
    out.push({ type: "tool_use", id: call.id, name: call.name, input: argsOf(call) });
  return out;
}

function stopReason(reply: ResolvedReply): string {
  if (reply.filtered) return "refusal";
  return reply.toolCalls.length > 0 ? "tool_use" : "end_turn";
}

function writeEvents(res: AnyResponse, id: string, model: string, reply: ResolvedReply, usage: DialectUsage) {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    "request-id": randomId("req_", 24, "base62"),
  });
  const event = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event("message_start", {
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usageOf(usage, 1),
    },
  });
  event("ping", {});
  contentBlocks(reply).forEach((block, index) => {
    if (block.type === "text") {
      event("content_block_start", { index, content_block: { type: "text", text: "" } });
      for (const piece of String(block.text).match(/\s*\S+\s*|\s+/g) ?? [])
        event("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
    } else {
      event("content_block_start", {
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      for (const piece of pieces(JSON.stringify(block.input)))
        event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
    }
    event("content_block_stop", { index });
  });
  event("message_delta", {
    delta: { stop_reason: stopReason(reply), stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  event("message_stop", {});
  res.end();
}

export const anthropic: Dialect = {
  name: "anthropic",
  matches: (method, path) => method === "POST" && path === "/v1/messages",
  async handle(req, res, url, text, engine) {
    const key = req.headers["x-api-key"];
    if (typeof key !== "string" || key === "") throw new LlmHttpError(401, "x-api-key header is required");
    if (engine.apiKey !== undefined && key !== engine.apiKey)
      throw new LlmHttpError(401, "invalid x-api-key");
    if (!req.headers["anthropic-version"]) throw invalid("anthropic-version: header is required");
    const body = parseJson(text, (message) => invalid(message));
    const stream = body.stream === true;
    const parsed = toCanonical(body);
    const request = canonical(parsed.model, parsed.messages, parsed.tools, stream, {
      max_tokens: body.max_tokens,
      ...(body.temperature === undefined ? {} : { temperature: body.temperature }),
    });
    const reply = await engine.answer(request, {
      dialect: "anthropic",
      path: url.pathname,
      stream,
      httpVersion: req.httpVersion,
      headers: req.headers,
      body,
    });
    const usage = engine.usage(request, reply, cachePrefix(body));
    const id = randomId("msg_", 24, "base62");
    if (stream) return writeEvents(res, id, parsed.model, reply, usage);
    sendBody(
      res,
      200,
      {
        id,
        type: "message",
        role: "assistant",
        model: parsed.model,
        content: contentBlocks(reply),
        stop_reason: stopReason(reply),
        stop_sequence: null,
        usage: usageOf(usage),
      },
      { "request-id": randomId("req_", 24, "base62") },
    );
  },
  sendError(res, error) {
    const type = ERROR_TYPES[error.status] ?? (error.status >= 500 ? "api_error" : "invalid_request_error");
    const { tokens, limit } = contextNumbers(error);
    const message =
      error.code === "model_not_found"
        ? `model: ${modelNamed(error)}`
        : error.code === "context_length_exceeded"
          ? `prompt is too long: ${tokens} tokens > ${limit} maximum`
          : error.message;
    const headers: Record<string, string> = { "request-id": randomId("req_", 24, "base62") };
    if (error.retryAfterSeconds !== undefined) headers["retry-after"] = String(error.retryAfterSeconds);
    sendBody(res, error.status, { type: "error", error: { type, message } }, headers);
  },
};
