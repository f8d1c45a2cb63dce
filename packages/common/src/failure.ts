/**
 * One reading of a failed call, whatever threw it (fetch, Node's http, an SDK): the HTTP status,
 * how long the other side asked to wait, and whether nothing answered at all. The callers (the
 * LLM providers, the vendor clients, the A2A client) each word the error their own way, from
 * this one reading. No Node imports: the A2A client runs in browsers too.
 */

/** How deep a chain of causes is followed: fetch wraps a socket's error twice, SDKs once more. */
const MAX_DEPTH = 5;

/** The longest wait a Retry-After is read as: a day (a timer longer than ~24.8 days fires at once). */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/** Codes that mean no answer came: wrong address, nothing listening, a broken path or TLS refused. */
const UNREACHABLE_CODES = new Set([
  // Node's socket and DNS errors
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EADDRNOTAVAIL",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "EAI_NONAME",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "EPIPE",
  "EPROTO",
  // Node's TLS errors: the server's certificate is not one this process trusts
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  // undici's (Node's fetch): the other side closed the socket
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);

/** Codes that mean a wait ran out before the answer came. */
const TIMEOUT_CODES = new Set([
  "ETIMEDOUT",
  "ESOCKETTIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
}

/** The error and the causes beneath it (`cause`, as fetch and most SDKs wrap), nearest first. */
function causesOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let at = error; at !== null && typeof at === "object" && chain.length < MAX_DEPTH; ) {
    if (chain.includes(at)) break;
    chain.push(at);
    at = field(at, "cause");
  }
  return chain;
}

function asStatus(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 100 && value < 600
    ? value
    : undefined;
}

/**
 * The HTTP status an error carries, in every shape the SDKs use: `status` (fetch's Response, OpenAI,
 * Anthropic, Octokit), `statusCode` (confluence.js, Node's http), `status_code` (Ollama), `response.status`
 * (axios, Octokit), `$metadata.httpStatusCode` (the AWS SDK), `body.response.statusCode` (Backstage),
 * on the error or on a cause beneath it.
 */
export function httpStatusOf(error: unknown): number | undefined {
  for (const at of causesOf(error)) {
    const response = field(at, "response");
    const status =
      asStatus(field(at, "status")) ??
      asStatus(field(at, "statusCode")) ??
      asStatus(field(at, "status_code")) ??
      asStatus(field(response, "status")) ??
      asStatus(field(response, "statusCode")) ??
      asStatus(field(field(at, "$metadata"), "httpStatusCode")) ??
      asStatus(field(field(field(at, "body"), "response"), "statusCode"));
    if (status !== undefined) return status;
  }
  return undefined;
}

/** A header's value from a fetch `Headers`, a plain object or a map-like, case-insensitively. */
export function headerOf(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== "object") return undefined;
  const getter = field(headers, "get");
  if (typeof getter === "function") {
    const value = (getter as (key: string) => unknown).call(headers, name);
    return typeof value === "string" ? value : undefined;
  }
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() !== wanted || value === undefined || value === null) continue;
    return Array.isArray(value) ? String(value[0]) : String(value);
  }
  return undefined;
}

/**
 * The response headers an error carries: `headers` (OpenAI, Anthropic, HttpStatusError),
 * `response.headers` (axios, Octokit), `$response.headers` (the AWS SDK), on it or a cause.
 */
export function headersOf(error: unknown): unknown {
  for (const at of causesOf(error)) {
    const headers =
      field(at, "headers") ??
      field(field(at, "response"), "headers") ??
      field(field(at, "$response"), "headers");
    if (headers && typeof headers === "object") return headers;
  }
  return undefined;
}

export interface RetryAfterOptions {
  /** The clock an HTTP date is measured from. */
  now?: number;
  /** The longest wait returned; a longer one is cut to it. */
  maxMs?: number;
}

/**
 * A Retry-After value in milliseconds: seconds (`"30"`, `"1.5"`) or an HTTP date, never below 0 and
 * at most `maxMs` (a day unless told). Anything else (`"soon"`, `"-1"`) is no wait asked for.
 */
export function retryAfterMs(value: string | undefined, options: RetryAfterOptions = {}): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
  else {
    // An HTTP date names its month; V8 would read a bare "-1" as a date too.
    const at = /[A-Za-z]{3}/.test(text) ? Date.parse(text) : Number.NaN;
    if (Number.isNaN(at)) return undefined;
    ms = at - (options.now ?? Date.now());
  }
  return Math.min(Math.max(0, Math.ceil(ms)), options.maxMs ?? MAX_RETRY_AFTER_MS);
}

/**
 * The wait an error's response asked for, in milliseconds: `retry-after-ms` (OpenAI's and Anthropic's
 * APIs), else `Retry-After` (seconds or an HTTP date), capped as `retryAfterMs` caps it.
 */
export function retryAfterMsOf(error: unknown, options: RetryAfterOptions = {}): number | undefined {
  const headers = headersOf(error);
  const exact = headerOf(headers, "retry-after-ms")?.trim();
  if (exact && /^\d+(\.\d+)?$/.test(exact)) {
    return Math.min(Math.ceil(Number(exact)), options.maxMs ?? MAX_RETRY_AFTER_MS);
  }
  return retryAfterMs(headerOf(headers, "retry-after"), options);
}

/** Why nothing answered: the network error's code, and whether it was a wait that ran out. */
export interface NetworkFailure {
  /** Node's or undici's code: ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET, ETIMEDOUT, … */
  code: string;
  /** True for a wait that ran out (ETIMEDOUT, undici's connect, headers and body timeouts). */
  timedOut: boolean;
}

/**
 * The network failure beneath an error, if it is one: found on the error, under `cause` (fetch's
 * `TypeError: fetch failed`), under `original` (axios inside Slack's client) or in the first of an
 * AggregateError's `errors` (every address of a name refused, as Node's happy eyeballs reports it).
 */
export function networkFailureOf(error: unknown): NetworkFailure | undefined {
  const seen = new Set<unknown>();
  for (let at = error, depth = 0; at !== null && typeof at === "object" && depth < MAX_DEPTH * 2; depth++) {
    if (seen.has(at)) break;
    seen.add(at);
    const code = field(at, "code");
    if (typeof code === "string") {
      if (UNREACHABLE_CODES.has(code)) return { code, timedOut: false };
      if (TIMEOUT_CODES.has(code)) return { code, timedOut: true };
    }
    const errors = field(at, "errors");
    at = field(at, "cause") ?? field(at, "original") ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return undefined;
}
