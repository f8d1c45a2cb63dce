/**
 * JSON over fetch for vendors that ship no client library (Argo CD, an internal API): one request,
 * a timeout, and a refusal thrown as an `HttpStatusError` the vendor client reads (status, the
 * body's message, Retry-After).
 */
import type { Dispatcher } from "undici";
import { undici } from "../network/undici.js";
import { messageOf } from "./failure.js";

export interface JsonRequest {
  method?: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The whole URL, query included. */
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
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

export async function requestJson<T>(request: JsonRequest): Promise<T> {
  const method = request.method ?? "GET";
  const init = {
    method,
    headers: {
      accept: "application/json",
      ...(request.body === undefined ? {} : { "content-type": "application/json" }),
      ...request.headers,
    },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    signal: AbortSignal.timeout(request.timeoutMs ?? 30_000),
    ...(request.redirect ? { redirect: request.redirect } : {}),
  };
  const response = request.dispatcher
    ? ((await undici().fetch(request.url, {
        ...init,
        dispatcher: request.dispatcher,
      })) as unknown as Response)
    : await fetch(request.url, init);
  const text = await response.text();
  if (!response.ok) {
    throw new HttpStatusError(
      response.status,
      response.headers,
      detailOf(text),
      `${method} ${pathOf(request.url)}`,
    );
  }
  return (text ? JSON.parse(text) : undefined) as T;
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
