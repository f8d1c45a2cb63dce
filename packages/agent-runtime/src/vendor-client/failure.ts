/**
 * What went wrong in a call to a vendor's API, read from whatever its client threw. One reading
 * for every agent: the HTTP status and the vendor's own words where the error carries them, the
 * network code when nothing answered, a timeout, and how long a rate limit asks to wait.
 */
export type FailureKind =
  | "credentials"
  | "forbidden"
  | "not-found"
  | "rate-limited"
  | "unreachable"
  | "timeout"
  | "http"
  | "unknown";

export interface VendorFailure {
  kind: FailureKind;
  status?: number;
  /** The vendor's own words about what went wrong (its error body's message). */
  detail?: string;
  /** Seconds the vendor asked to wait before trying again (Retry-After or its reset time). */
  retryAfterSeconds?: number;
  /** Why nothing answered: the network error's code (ECONNREFUSED, ENOTFOUND, …). */
  reason?: string;
  /** The call that failed, e.g. `GET /repos/acme/api`, when the error tells it. */
  operation?: string;
}

/** Network codes that mean no answer came: wrong address, nothing listening, or a broken path. */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "UND_ERR_SOCKET",
]);
const TIMEOUT_CODES = new Set([
  "ETIMEDOUT",
  "ESOCKETTIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
]);
const TIMEOUT_NAMES = new Set(["TimeoutError", "AbortError", "RequestTimeout"]);

type Loose = Record<string, unknown> | undefined;

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
}

/** The HTTP status in the shapes vendor clients use (fetch, octokit, axios, AWS SDK, Backstage). */
export function statusOf(error: unknown): number | undefined {
  const candidates = [
    field(error, "status"),
    field(error, "statusCode"),
    field(field(error, "response"), "status"),
    field(field(error, "response"), "statusCode"),
    field(field(error, "$metadata"), "httpStatusCode"),
    field(field(field(error, "body"), "response"), "statusCode"),
    field(field(field(error, "cause"), "response"), "status"),
  ];
  for (const candidate of candidates) {
    if (typeof candidate === "number" && candidate >= 100 && candidate < 600) return candidate;
  }
  return undefined;
}

/** A network error's code, from the error or the causes beneath it (fetch wraps them twice). */
export function networkCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = field(current, "code");
    if (typeof code === "string" && (UNREACHABLE_CODES.has(code) || TIMEOUT_CODES.has(code))) return code;
    // fetch wraps in `cause`; some SDKs (Slack's) keep the socket's error as `original`.
    current = field(current, "cause") ?? field(current, "original");
  }
  return undefined;
}

function isTimeout(error: unknown, code: string | undefined): boolean {
  if (code && TIMEOUT_CODES.has(code)) return true;
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current; depth++) {
    const name = field(current, "name");
    if (typeof name === "string" && TIMEOUT_NAMES.has(name)) return true;
    current = field(current, "cause");
  }
  return false;
}

/** A header's value from a fetch `Headers`, a plain object or a map-like, case-insensitively. */
export function headerOf(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== "object") return undefined;
  const getter = field(headers, "get");
  if (typeof getter === "function") {
    const value = (getter as (key: string) => unknown).call(headers, name);
    return typeof value === "string" ? value : undefined;
  }
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? String(value[0]) : String(value);
  }
  return undefined;
}

/** Retry-After as seconds: a number of seconds, or an HTTP date (`now` for the difference). */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

function headersOf(error: unknown): unknown {
  return (
    field(error, "headers") ??
    field(field(error, "response"), "headers") ??
    field(field(field(error, "cause"), "response"), "headers") ??
    field(field(error, "$response"), "headers")
  );
}

/** The kind a status means; 429 and 503 with Retry-After are a vendor asking to wait. */
export function kindOfStatus(status: number, retryAfter?: number): FailureKind {
  if (status === 401) return "credentials";
  if (status === 403) return "forbidden";
  if (status === 404) return "not-found";
  if (status === 429 || (status === 503 && retryAfter !== undefined)) return "rate-limited";
  if (status === 408 || status === 504) return "timeout";
  return "http";
}

/** The generic reading of any thrown value; a vendor's own reading is laid over it. */
export function classifyFailure(error: unknown, now = Date.now()): VendorFailure {
  const status = statusOf(error);
  const retryAfter = retryAfterSeconds(headerOf(headersOf(error), "retry-after"), now);
  const detail = messageOf(field(error, "detail"));
  const operation = field(error, "operation");
  const base: VendorFailure = {
    kind: "unknown",
    ...(detail ? { detail } : {}),
    ...(typeof operation === "string" ? { operation } : {}),
    ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
  };
  if (status !== undefined) return { ...base, kind: kindOfStatus(status, retryAfter), status };
  const code = networkCodeOf(error);
  if (isTimeout(error, code)) return { ...base, kind: "timeout", ...(code ? { reason: code } : {}) };
  if (code) return { ...base, kind: "unreachable", reason: code };
  // fetch that never got an answer, with no network code (a TLS failure, a malformed URL): undici
  // throws TypeError("fetch failed") with why in its cause, or "Failed to parse URL from …".
  if (error instanceof TypeError && /^(fetch failed|Failed to parse URL)/.test(error.message)) {
    const cause = field(error, "cause");
    const why = messageOf(field(cause, "message")) ?? error.message;
    return { ...base, kind: "unreachable", reason: why };
  }
  return base;
}

/** What a vendor's `classify` may say: any part of a failure, `status: null` to drop the generic one. */
export type VendorReading = Omit<Partial<VendorFailure>, "status"> & { status?: number | null };

/**
 * Lays a vendor's own reading over the generic one; a status it adds decides the kind, and a
 * status of `null` says the generic one is not the vendor's (a client that reports a network
 * failure as HTTP 500, say).
 */
export function mergeFailure(generic: VendorFailure, vendor: VendorReading | undefined): VendorFailure {
  if (!vendor) return generic;
  const { status, ...rest } = vendor;
  const merged: VendorFailure = { ...generic, ...withoutUndefined(rest) };
  if (status === null) delete merged.status;
  else if (status !== undefined) {
    merged.status = status;
    if (vendor.kind === undefined && status !== generic.status) {
      merged.kind = kindOfStatus(status, merged.retryAfterSeconds);
    }
  }
  return merged;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

/** A short text from an error body's usual message fields, or undefined. */
export function messageOf(body: unknown): string | undefined {
  if (typeof body === "string") return body.trim() ? body.trim().slice(0, 300) : undefined;
  const record = body as Loose;
  if (!record || typeof record !== "object") return undefined;
  const nested = field(record, "error");
  const parts = [
    field(record, "message"),
    typeof nested === "string" ? nested : field(nested, "message"),
    ...(Array.isArray(field(record, "errorMessages")) ? (field(record, "errorMessages") as unknown[]) : []),
  ].filter((part): part is string => typeof part === "string" && part.trim() !== "");
  return parts.length > 0 ? [...new Set(parts)].join("; ").slice(0, 300) : undefined;
}
