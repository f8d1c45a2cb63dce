import type { ResolvedReply } from "../completion.js";
import { splitIntoTokens } from "../completion.js";
import { LlmHttpError } from "../errors.js";
import type { ChatMessage, ToolDefinition } from "../types.js";
import {
  type AnyResponse,
  argsOf,
  canonical,
  type Dialect,
  type DialectUsage,
  isRecord,
  parseJson,
  sendBody,
  toolCall,
  toolDefinition,
} from "./shared.js";

// Ollama's chat API (POST /api/chat, github.com/ollama/ollama docs/api.md): `stream` defaults to true
// and streams NDJSON objects ending with one `done: true`; tool calls carry arguments as objects and
// tool results carry no call id (they answer the calls before them, in order); errors are {error}.

function toCanonical(body: Record<string, unknown>) {
  const { model, messages, tools } = body;
  if (typeof model !== "string" || model === "") throw new LlmHttpError(400, "model is required");
  if (!Array.isArray(messages)) throw new LlmHttpError(400, "messages must be a list");
  const out: ChatMessage[] = [];
  let open: string[] = [];
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || typeof message.role !== "string")
      throw new LlmHttpError(400, `messages[${index}]: a message needs a role`);
    const content = typeof message.content === "string" ? message.content : "";
    switch (message.role) {
      case "system":
      case "user":
        out.push({ role: message.role, content });
        break;
      case "assistant": {
        const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
        const ids = calls.map((_, i) => `ollama_${index}_${i}`);
        open = [...ids];
        out.push({
          role: "assistant",
          content: content || null,
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((call, i) => {
                  const fn = isRecord(call) && isRecord(call.function) ? call.function : {};
                  if (fn.arguments !== undefined && !isRecord(fn.arguments))
                    throw new LlmHttpError(
                      400,
                      "json: cannot unmarshal string into Go struct field ToolCallFunction.messages.tool_calls.function.arguments of type api.ToolCallFunctionArguments",
                    );
                  return toolCall(ids[i] as string, String(fn.name ?? ""), fn.arguments);
                }),
              }
            : {}),
        });
        break;
      }
      case "tool":
        out.push({ role: "tool", content, tool_call_id: open.shift() ?? `ollama_${index}_unmatched` });
        break;
      default:
        throw new LlmHttpError(400, `invalid role: ${message.role}`);
    }
  }
  const defs: ToolDefinition[] = [];
  for (const tool of Array.isArray(tools) ? tools : []) {
    const fn = isRecord(tool) && isRecord(tool.function) ? tool.function : undefined;
    if (!fn || typeof fn.name !== "string") throw new LlmHttpError(400, "a tool needs function.name");
    defs.push(toolDefinition(fn.name, fn.description, fn.parameters));
  }
  return { model, messages: out, tools: defs };
}

function message(content: string, reply?: ResolvedReply) {
  return {
    role: "assistant",
    content,
    ...(reply && reply.toolCalls.length > 0
      ? {
          tool_calls: reply.toolCalls.map((call) => ({
            function: { name: call.name, arguments: argsOf(call) },
          })),
        }
      : {}),
  };
}

function final(model: string, usage: DialectUsage, content: string, reply?: ResolvedReply) {
  return {
    model,
    created_at: new Date().toISOString(),
    message: message(content, reply),
    done_reason: "stop",
    done: true,
    total_duration: 1_000_000,
    load_duration: 0,
    prompt_eval_count: usage.input,
    prompt_eval_duration: 500_000,
    eval_count: usage.output,
    eval_duration: 500_000,
  };
}

function writeLines(res: AnyResponse, model: string, reply: ResolvedReply, usage: DialectUsage): void {
  res.writeHead(200, { "content-type": "application/x-ndjson" });
  const line = (object: unknown) => res.write(`${JSON.stringify(object)}\n`);
  const chunk = (m: ReturnType<typeof message>) =>
    line({ model, created_at: new Date().toISOString(), message: m, done: false });
  for (const token of splitIntoTokens(reply.content ?? "")) chunk(message(token));
  if (reply.toolCalls.length > 0) chunk(message("", reply));
  line(final(model, usage, ""));
  res.end();
}

export const ollama: Dialect = {
  name: "ollama",
  matches: (method, path) => method === "POST" && path === "/api/chat",
  async handle(req, res, url, text, engine) {
    const body = parseJson(text, (m) => new LlmHttpError(400, m));
    const stream = body.stream !== false;
    const parsed = toCanonical(body);
    const request = canonical(parsed.model, parsed.messages, parsed.tools, stream);
    const reply = await engine.answer(request, {
      dialect: "ollama",
      path: url.pathname,
      stream,
      httpVersion: req.httpVersion,
      headers: req.headers,
      body,
    });
    const usage = engine.usage(request, reply);
    if (stream) return writeLines(res, parsed.model, reply, usage);
    sendBody(res, 200, final(parsed.model, usage, reply.content ?? "", reply));
  },
  sendError(res, error) {
    const headers: Record<string, string> = {};
    if (error.retryAfterSeconds !== undefined) headers["retry-after"] = String(error.retryAfterSeconds);
    const message =
      error.code === "model_not_found"
        ? `model "${/`([^`]+)`/.exec(error.message)?.[1] ?? "unknown"}" not found, try pulling it first`
        : error.message;
    sendBody(res, error.status, { error: message }, headers);
  },
};
