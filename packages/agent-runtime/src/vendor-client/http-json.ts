/**
 * JSON over fetch for vendors that ship no client library (Argo CD, an internal API): one request,
 * a timeout, an answer of bounded size, and a refusal thrown as an `HttpStatusError` the vendor
 * client reads (status, the body's message, Retry-After). The request's body is JSON, or a form or
 * multipart body (an OpenAPI operation's); cookies go in one Cookie header, each checked.
 */
import { SwitchboardError } from "@switchboard/common";
import type { Dispatcher } from "undici";
import { undici } from "../network/undici.js";
import { messageOf } from "./failure.js";

export interface JsonRequest {
  method?: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The whole URL, query included. */
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /**
   * Sent instead of `body`, with its own media type: `application/x-www-form-urlencoded`
   * (URLSearchParams) or `multipart/form-data` (FormData, its boundary chosen here).
   */
  form?: URLSearchParams | FormData;
  /**
   * Cookies, sent as one Cookie header: each name a token and each value cookie-octets (RFC 6265:
   * no `;`, `,`, space, quote, backslash or control character); anything else is refused, so no value
   * starts another cookie or header. Encode values before (percent-encoding is the common way).
   */
  cookies?: Array<[string, string]>;
  /** The largest answer read, in bytes (default 16 MiB): a bigger one fails the call, unread. */
  maxAnswerBytes?: number;
  /** Default 30 s: a tool call fails rather than holding the turn open. */
  timeoutMs?: number;
  /** How to connect, when not as every fetch does (e.g. `dispatcherFor(false)` under a *_VERIFY_SSL=false). */
  dispatcher?: Dispatcher;
  /**
   * `manual`: a redirect is not followed but refused as its 3xx status (its Location in the error's
   * headers), for callers whose credentials must reach the configured host only. Default: followed.
   */
  redirect?: "follow" | "manual";
}

/** An answer with a status of 400 or more (or a redirect not followed: `redirect: "manual"`). */
export class HttpStatusError extends Error {
  override readonly name = "HttpStatusError";

  constructor(
    readonly status: number,
    readonly headers: Headers,
    /** The body's message fields, or its first characters. */
    readonly detail: string | undefined,
    /** `METHOD path` of the call, for the message. */
    readonly operation: string,
  ) {
    super(`HTTP ${status} to ${operation}${detail ? `: ${detail}` : ""}`);
  }
}

const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** Of a refusal's body only its message is read: a megabyte holds any error body (past it, its first characters say it). */
const MAX_REFUSAL_BYTES = 1024 * 1024;

export async function requestJson<T>(request: JsonRequest): Promise<T> {
  const method = request.method ?? "GET";
  const operation = `${method} ${pathOf(request.url)}`;
  const { body, contentType } = await encodedBody(request);
  const init = {
    method,
    headers: {
      accept: "application/json",
      ...(contentType ? { "content-type": contentType } : {}),
      ...request.headers,
      ...(request.cookies?.length ? { cookie: cookieHeader(request.cookies) } : {}),
    },
    ...(body === undefined ? {} : { body }),
    signal: AbortSignal.timeout(request.timeoutMs ?? 30_000),
    ...(request.redirect ? { redirect: request.redirect } : {}),
  };
  const response = request.dispatcher
    ? ((await undici().fetch(request.url, {
        ...init,
        dispatcher: request.dispatcher,
      })) as unknown as Response)
    : await fetch(request.url, init);
  if (!response.ok) {
    const { text } = await readAnswer(response, MAX_REFUSAL_BYTES);
    throw new HttpStatusError(response.status, response.headers, detailOf(text), operation);
  }
  const limit = request.maxAnswerBytes ?? MAX_ANSWER_BYTES;
  const { text, cut } = await readAnswer(response, limit);
  if (cut)
    throw new SwitchboardError(
      "http.answer-too-large",
      "third-party",
      `The answer to ${operation} is larger than ${limit} bytes, more than is read: ask for less (a filter or a smaller page).`,
    );
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The body and its media type: a form's or multipart's own (its boundary included), else JSON. */
async function encodedBody(
  request: JsonRequest,
): Promise<{ body?: string | Uint8Array; contentType?: string }> {
  if (request.form instanceof URLSearchParams)
    return { body: request.form.toString(), contentType: "application/x-www-form-urlencoded" };
  if (request.form) {
    // Encoded here, to bytes, so either fetch (Node's, or undici's with a dispatcher) sends the same.
    const encoded = new Response(request.form);
    return {
      body: new Uint8Array(await encoded.arrayBuffer()),
      contentType: encoded.headers.get("content-type") ?? "multipart/form-data",
    };
  }
  if (request.body === undefined) return {};
  return { body: JSON.stringify(request.body), contentType: "application/json" };
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const COOKIE_OCTETS = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;

function cookieHeader(cookies: Array<[string, string]>): string {
  for (const [name, value] of cookies) {
    if (!TOKEN.test(name) || !COOKIE_OCTETS.test(value))
      throw new SwitchboardError(
        "http.cookie",
        "third-party",
        `The cookie ${TOKEN.test(name) ? name : JSON.stringify(name.slice(0, 40))} cannot be sent: a cookie's name is a token and its value has no ';', ',', space, quote, backslash or control character.`,
      );
  }
  return cookies.map(([name, value]) => `${name}=${value}`).join("; ");
}

/** The answer's text, at most `limit` bytes of it (`cut` when there was more): read, never buffered whole. */
async function readAnswer(response: Response, limit: number): Promise<{ text: string; cut: boolean }> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (!response.body) return { text: "", cut: false };
  if (declared > limit) {
    await response.body.cancel().catch(() => undefined);
    return { text: "", cut: true };
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      chunks.push(value.subarray(0, limit - size));
      await reader.cancel().catch(() => undefined);
      return { text: Buffer.concat(chunks).toString("utf8"), cut: true };
    }
    chunks.push(value);
    size += value.byteLength;
  }
  return { text: Buffer.concat(chunks).toString("utf8"), cut: false };
}

function detailOf(text: string): string | undefined {
  try {
    return messageOf(JSON.parse(text));
  } catch {
    // Not JSON (a proxy's page): its first characters say most.
    return messageOf(text.replace(/\s+/g, " "));
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
