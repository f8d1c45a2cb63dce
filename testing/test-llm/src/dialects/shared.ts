import { randomBytes } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeaders } from "node:http";
import type { Http2ServerRequest } from "node:http2";
import type { ResolvedReply } from "../completion.js";
import { LlmHttpError } from "../errors.js";
import type { ChatCompletionRequest, ChatMessage, RequestToolCall, ToolDefinition } from "../types.js";

/** The provider protocols the scripted server speaks besides OpenAI's and Azure's. */
export type DialectName = "anthropic" | "bedrock" | "gemini" | "ollama";

/** A request over HTTP/1.1 or cleartext HTTP/2 (the AWS SDK streams over HTTP/2). */
export type AnyRequest = IncomingMessage | Http2ServerRequest;
/** The response calls the dialects make; both Node response classes have them. */
export interface AnyResponse {
  readonly headersSent: boolean;
  writeHead(status: number, headers: OutgoingHttpHeaders): unknown;
  write(chunk: string | Uint8Array): boolean;
  end(): unknown;
  end(chunk: string): unknown;
}

/** What a dialect gets from the server: the one scripted-reply engine, behind every protocol. */
export interface DialectEngine {
  /** Records the request (as `requests` and `calls`), runs the script, waits out the latency. */
  answer(request: ChatCompletionRequest, call: RecordedCall): Promise<ResolvedReply>;
  /**
   * Token counts for a request and its reply. `cachePrefix`: the request's blocks up to the client's
   * cache breakpoint, one JSON line each, when it set one. The longest prefix written before (whole
   * lines) is read from the cache, the rest of it written, as a provider's prompt cache does.
   */
  usage(request: ChatCompletionRequest, reply: ResolvedReply, cachePrefix?: string): DialectUsage;
  /** The key the server was started with; undefined accepts any. */
  apiKey: string | undefined;
  /** Records an embeddings request as the client sent it (`embeddingCalls`). */
  embedded(call: RecordedCall): void;
}

/** Token counts in the engine's terms; each dialect reports them under its provider's names. */
export interface DialectUsage {
  /** Every prompt token, cached or not. */
  input: number;
  output: number;
  /** Prompt tokens served from the provider's cache. */
  cacheRead: number;
  /** Prompt tokens written to the cache by this request. */
  cacheWrite: number;
}

/** One request as the client sent it in its provider's protocol, for tests that check the wire form. */
export interface RecordedCall {
  dialect: DialectName | "openai";
  path: string;
  stream: boolean;
  /** HTTP version the client used ("1.1" or "2.0"). */
  httpVersion: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** A provider protocol: which requests it takes, and how it answers and fails in that protocol's form. */
export interface Dialect {
  name: DialectName;
  /** True when the request is this dialect's. */
  matches(method: string, path: string): boolean;
  handle(req: AnyRequest, res: AnyResponse, url: URL, body: string, engine: DialectEngine): Promise<void>;
  /** Writes an error as this provider writes it (status, body, headers). */
  sendError(res: AnyResponse, error: LlmHttpError): void;
}

export function randomId(prefix: string, length: number, alphabet = "hex"): string {
  const raw =
    alphabet === "base62"
      ? randomBytes(length * 2)
          .toString("base64")
          .replace(/[^A-Za-z0-9]/g, "")
      : randomBytes(length).toString("hex");
  return prefix + raw.slice(0, length);
}

export function sendBody(
  res: AnyResponse,
  status: number,
  body: unknown,
  headers: OutgoingHttpHeaders = {},
): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function parseJson(text: string, invalid: (message: string) => LlmHttpError): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalid("The request body is not valid JSON.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw invalid("The request body must be a JSON object.");
  return body as Record<string, unknown>;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The model an `unknownModel` error names (between backticks, as OpenAI writes it). */
export function modelNamed(error: LlmHttpError): string {
  return /`([^`]+)`/.exec(error.message)?.[1] ?? "unknown";
}

/** The text of a turn's `{text}` blocks (Bedrock) or parts (Gemini), joined. */
export function textOf(blocks: unknown[]): string {
  return blocks.map((b) => (isRecord(b) && typeof b.text === "string" ? b.text : "")).join("");
}

/** A user turn's `{text}` blocks or parts as the engine's user message (none when it has no text). */
export function userText(blocks: Record<string, unknown>[]): ChatMessage[] {
  const text = blocks.filter((b) => typeof b.text === "string");
  if (text.length === 0) return [];
  return [{ role: "user", content: text.map((b) => ({ type: "text", text: String(b.text) })) }];
}

/** `LlmHttpError` 400 with a dialect's own type; the dialect's sendError writes it in its shape. */
export function invalid(message: string, type?: string): LlmHttpError {
  return new LlmHttpError(400, message, type === undefined ? {} : { type });
}

/** An OpenAI-shaped tool definition, the engine's form of every dialect's tool. */
export function toolDefinition(name: string, description: unknown, parameters: unknown): ToolDefinition {
  return {
    type: "function",
    function: {
      name,
      ...(typeof description === "string" ? { description } : {}),
      ...(isRecord(parameters) ? { parameters } : {}),
    },
  };
}

/** An OpenAI-shaped tool call. */
export function toolCall(id: string, name: string, args: unknown): RequestToolCall {
  return { id, type: "function", function: { name, arguments: JSON.stringify(args ?? {}) } };
}

/** Parses a reply's tool-call arguments back to the object the dialects send. */
export function argsOf(call: ResolvedReply["toolCalls"][number]): Record<string, unknown> {
  const parsed: unknown = JSON.parse(call.arguments);
  return isRecord(parsed) ? parsed : {};
}

/** The engine's request: the dialect's conversation in OpenAI's form, with what the scripts read. */
export function canonical(
  model: string,
  messages: ChatMessage[],
  tools: ToolDefinition[],
  stream: boolean,
  rest: Record<string, unknown> = {},
): ChatCompletionRequest {
  return { ...rest, model, messages, ...(tools.length > 0 ? { tools } : {}), stream };
}

/** Pieces of a string of at most `size` characters, as providers stream tool arguments. */
export function pieces(text: string, size = 8): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * The blocks before a cache breakpoint as the engine's cache key, one JSON line each, without the cache
 * markers themselves (a Bedrock cachePoint block, a cache_control field): a marker marks a position,
 * so a prefix cached when it ended a request is found again once the conversation has grown past it.
 */
export function prefixLines(parts: unknown[]): string {
  return parts
    .filter((part) => !(isRecord(part) && part.cachePoint !== undefined))
    .map((part) => {
      if (!isRecord(part) || part.cache_control === undefined) return JSON.stringify(part);
      const { cache_control: _marker, ...rest } = part;
      return JSON.stringify(rest);
    })
    .join("\n");
}
