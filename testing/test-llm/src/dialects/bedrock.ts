import { EventStreamCodec } from "@smithy/core/event-streams";
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
  invalid,
  isRecord,
  parseJson,
  pieces,
  prefixLines,
  randomId,
  sendBody,
  textOf,
  toolCall,
  toolDefinition,
  userText,
} from "./shared.js";
import { bedrockToolProblems } from "./tool-rules.js";

// Bedrock Runtime's Converse and ConverseStream (the Smithy model in the AWS SDK's sources, restJson1):
// POST /model/{modelId}/converse and /converse-stream, SigV4-signed; ConverseStream answers with AWS
// event-stream frames (application/vnd.amazon.eventstream), encoded here by the codec the SDK decodes
// them with. Errors carry their shape's name in x-amzn-errortype and {message} in the body.

const ERRORS: Record<number, string> = {
  400: "ValidationException",
  401: "UnrecognizedClientException",
  403: "AccessDeniedException",
  404: "ResourceNotFoundException",
  408: "ModelTimeoutException",
  424: "ModelErrorException",
  429: "ThrottlingException",
  500: "InternalServerException",
  503: "ServiceUnavailableException",
};

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

function resultText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((b) =>
      isRecord(b)
        ? typeof b.text === "string"
          ? b.text
          : b.json !== undefined
            ? JSON.stringify(b.json)
            : ""
        : "",
    )
    .join("");
}

function toCanonical(body: Record<string, unknown>) {
  const { messages, system, toolConfig } = body;
  if (!Array.isArray(messages) || messages.length === 0)
    throw invalid(
      "A conversation must start with a user message. Try again with a conversation that starts with a user message.",
    );
  const out: ChatMessage[] = [];
  if (Array.isArray(system)) out.push({ role: "system", content: textOf(system) });
  let open = new Set<string>();
  let previous: unknown;
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || (message.role !== "user" && message.role !== "assistant"))
      throw invalid(
        `1 validation error detected: Value at 'messages.${index + 1}.member.role' failed to satisfy constraint: Member must satisfy enum value set: [user, assistant]`,
      );
    if (index === 0 && message.role !== "user")
      throw invalid(
        "A conversation must start with a user message. Try again with a conversation that starts with a user message.",
      );
    if (message.role === previous)
      throw invalid(
        "A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.",
      );
    previous = message.role;
    const content = Array.isArray(message.content) ? message.content.filter(isRecord) : [];
    if (content.length === 0)
      throw invalid(
        `The content field in the Message object at messages.${index} is empty. Add a ContentBlock object to the content field and try again.`,
      );
    if (message.role === "assistant") {
      if (open.size > 0) throw unanswered(index);
      const uses = content
        .filter((b) => isRecord(b.toolUse))
        .map((b) => b.toolUse as Record<string, unknown>);
      open = new Set(uses.map((u) => String(u.toolUseId)));
      out.push({
        role: "assistant",
        content: textOf(content) || null,
        ...(uses.length > 0
          ? { tool_calls: uses.map((u) => toolCall(String(u.toolUseId), String(u.name), u.input)) }
          : {}),
      });
      continue;
    }
    for (const block of content.filter((b) => isRecord(b.toolResult))) {
      const result = block.toolResult as Record<string, unknown>;
      const id = String(result.toolUseId);
      if (!open.delete(id))
        throw invalid(
          `The toolResult blocks at messages.${index}.content contain toolUseId ${id}, which the previous turn's toolUse blocks do not have.`,
        );
      out.push({ role: "tool", tool_call_id: id, content: resultText(result.content) });
    }
    if (open.size > 0) throw unanswered(index);
    out.push(...userText(content));
  }
  const defs: ToolDefinition[] = [];
  if (toolConfig !== undefined) {
    const tools = isRecord(toolConfig) && Array.isArray(toolConfig.tools) ? toolConfig.tools : undefined;
    if (!tools || tools.length === 0)
      throw invalid(
        "1 validation error detected: Value at 'toolConfig.tools' failed to satisfy constraint: Member must have length greater than or equal to 1",
      );
    const problems = bedrockToolProblems(tools);
    if (problems.length > 0) throw invalid(problems.join("; "));
    for (const tool of tools.filter(isRecord)) {
      const spec = tool.toolSpec;
      if (isRecord(spec) && isRecord(spec.inputSchema))
        defs.push(toolDefinition(String(spec.name), spec.description, spec.inputSchema.json));
    }
  }
  return { messages: out, tools: defs };
}

function unanswered(index: number): LlmHttpError {
  return invalid(
    `Expected toolResult blocks at messages.${index}.content for the following Ids: the toolUse blocks of the previous turn`,
  );
}

/** The request up to its last cachePoint (tools, system, messages: the order Bedrock caches in). */
function cachePrefix(body: Record<string, unknown>): string | undefined {
  const parts: unknown[] = [
    ...(isRecord(body.toolConfig) && Array.isArray(body.toolConfig.tools) ? body.toolConfig.tools : []),
    ...(Array.isArray(body.system) ? body.system : []),
  ];
  for (const message of Array.isArray(body.messages) ? body.messages : [])
    if (isRecord(message) && Array.isArray(message.content)) parts.push(...message.content);
  const last = parts.findLastIndex((part) => isRecord(part) && part.cachePoint !== undefined);
  return last < 0 ? undefined : prefixLines(parts.slice(0, last + 1));
}

function usageOf(usage: DialectUsage) {
  return {
    inputTokens: usage.input - usage.cacheRead - usage.cacheWrite,
    outputTokens: usage.output,
    totalTokens: usage.input + usage.output,
    ...(usage.cacheRead + usage.cacheWrite > 0
      ? { cacheReadInputTokens: usage.cacheRead, cacheWriteInputTokens: usage.cacheWrite }
      : {}),
  };
}

const stopReason = (reply: ResolvedReply) =>
  reply.filtered ? "guardrail_intervened" : reply.toolCalls.length > 0 ? "tool_use" : "end_turn";

/** The ConverseStream events of a reply, in the Smithy model's ConverseStreamOutput union. */
function events(reply: ResolvedReply, usage: DialectUsage): [string, Record<string, unknown>][] {
  const out: [string, Record<string, unknown>][] = [["messageStart", { role: "assistant" }]];
  let index = 0;
  if (reply.content) {
    for (const token of splitIntoTokens(reply.content))
      out.push(["contentBlockDelta", { contentBlockIndex: index, delta: { text: token } }]);
    out.push(["contentBlockStop", { contentBlockIndex: index }]);
    index += 1;
  }
  for (const call of reply.toolCalls) {
    out.push([
      "contentBlockStart",
      { contentBlockIndex: index, start: { toolUse: { toolUseId: call.id, name: call.name } } },
    ]);
    for (const piece of pieces(call.arguments))
      out.push(["contentBlockDelta", { contentBlockIndex: index, delta: { toolUse: { input: piece } } }]);
    out.push(["contentBlockStop", { contentBlockIndex: index }]);
    index += 1;
  }
  out.push(["messageStop", { stopReason: stopReason(reply) }]);
  out.push(["metadata", { usage: usageOf(usage), metrics: { latencyMs: 1 } }]);
  return out;
}

function frame(eventType: string, payload: Record<string, unknown>): Uint8Array {
  return codec.encode({
    headers: {
      ":event-type": { type: "string", value: eventType },
      ":content-type": { type: "string", value: "application/json" },
      ":message-type": { type: "string", value: "event" },
    },
    body: new TextEncoder().encode(JSON.stringify(payload)),
  });
}

function writeEventStream(res: AnyResponse, reply: ResolvedReply, usage: DialectUsage): void {
  res.writeHead(200, {
    "content-type": "application/vnd.amazon.eventstream",
    "x-amzn-requestid": randomId("", 32),
  });
  for (const [type, payload] of events(reply, usage)) res.write(frame(type, payload));
  res.end();
}

/**
 * Refuses a request not signed (SigV4, for the bedrock service) with the expected access key, as
 * Bedrock does: 403 MissingAuthenticationTokenException or UnrecognizedClientException.
 */
export function checkSigned(header: string | string[] | undefined, accessKeyId: string | undefined): void {
  const accessKey = signedBy(header);
  if (accessKey === undefined)
    throw new LlmHttpError(403, "Missing Authentication Token", {
      type: "MissingAuthenticationTokenException",
    });
  if (accessKeyId !== undefined && accessKey !== accessKeyId)
    throw new LlmHttpError(403, "The security token included in the request is invalid.", {
      type: "UnrecognizedClientException",
    });
}

/** The access key of a SigV4 Authorization header for the bedrock service, else undefined. */
function signedBy(header: string | string[] | undefined): string | undefined {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/[a-z0-9-]+\/bedrock\/aws4_request, ?SignedHeaders=[^,]+, ?Signature=[0-9a-f]{64}$/.exec(
      typeof header === "string" ? header : "",
    );
  return match?.[1];
}

const ROUTE = /^\/model\/([^/]+)\/(converse|converse-stream)$/;

export const bedrock: Dialect = {
  name: "bedrock",
  matches: (method, path) => method === "POST" && ROUTE.test(path),
  async handle(req, res, url, text, engine) {
    const [, model = "", operation] = ROUTE.exec(url.pathname) ?? [];
    checkSigned(req.headers.authorization, engine.apiKey);
    const body = parseJson(text, invalid);
    const stream = operation === "converse-stream";
    const parsed = toCanonical(body);
    const config = isRecord(body.inferenceConfig) ? body.inferenceConfig : {};
    const request = canonical(decodeURIComponent(model), parsed.messages, parsed.tools, stream, {
      ...(config.temperature === undefined ? {} : { temperature: config.temperature }),
    });
    const reply = await engine.answer(request, {
      dialect: "bedrock",
      path: url.pathname,
      stream,
      httpVersion: req.httpVersion,
      headers: req.headers,
      body,
    });
    const usage = engine.usage(request, reply, cachePrefix(body));
    if (stream) return writeEventStream(res, reply, usage);
    const content = [
      ...(reply.content ? [{ text: reply.content }] : []),
      ...reply.toolCalls.map((call) => ({
        toolUse: { toolUseId: call.id, name: call.name, input: argsOf(call) },
      })),
    ];
    sendBody(
      res,
      200,
      {
        output: { message: { role: "assistant", content } },
        stopReason: stopReason(reply),
        usage: usageOf(usage),
        metrics: { latencyMs: 1 },
      },
      { "x-amzn-requestid": randomId("", 32) },
    );
  },
  sendError(res, error) {
    // Bedrock's words for an unknown model id and an over-long input, both ValidationException (400).
    if (error.code === "model_not_found" || error.code === "context_length_exceeded") {
      const message =
        error.code === "model_not_found"
          ? "The provided model identifier is invalid."
          : "Input is too long for requested model.";
      return sendBody(
        res,
        400,
        { message },
        {
          "x-amzn-errortype": "ValidationException",
          "x-amzn-requestid": randomId("", 32),
        },
      );
    }
    const known = Object.values(ERRORS).includes(error.type) || error.type.endsWith("Exception");
    const type = known ? error.type : (ERRORS[error.status] ?? "InternalServerException");
    const headers: Record<string, string> = {
      "x-amzn-errortype": type,
      "x-amzn-requestid": randomId("", 32),
    };
    if (error.retryAfterSeconds !== undefined) headers["retry-after"] = String(error.retryAfterSeconds);
    sendBody(res, error.status, { message: error.message }, headers);
  },
};
