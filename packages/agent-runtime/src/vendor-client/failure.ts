import { httpStatusOf, type NetworkFailure, networkFailureOf, retryAfterMsOf } from "@switchboard/common";

/**
 * What went wrong in a call to a vendor's API, read from whatever its client threw. One reading
 * for every agent: the HTTP status and the vendor's own words where the error carries them, the
 * network code when nothing answered, a timeout, and how long a rate limit asks to wait. The
 * status, the wait and the network code are read as every package reads them
 * (`@switchboard/common`'s failure reading); the kinds and the vendor's words are read here.
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
  /** Milliseconds the vendor asked to wait before trying again (Retry-After or its reset time). */
  retryAfterMs?: number;
  /** Why nothing answered: the network error's code (ECONNREFUSED, ENOTFOUND, …). */
  reason?: string;
  /** The call that failed, e.g. `GET /repos/acme/api`, when the error tells it. */
  operation?: string;
}

const TIMEOUT_NAMES = new Set(["TimeoutError", "AbortError", "RequestTimeout"]);

type Loose = Record<string, unknown> | undefined;

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
}

/** A wait that ran out: a timeout's network code, or an abort by name (AbortSignal.timeout's). */
function isTimeout(error: unknown, network: NetworkFailure | undefined): boolean {
  if (network?.timedOut) return true;
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current; depth++) {
    const name = field(current, "name");
    if (typeof name === "string" && TIMEOUT_NAMES.has(name)) return true;
    current = field(current, "cause");
  }
  return false;
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
  const status = httpStatusOf(error);
  const retryAfter = retryAfterMsOf(error, { now });
  const detail = messageOf(field(error, "detail"));
  const operation = field(error, "operation");
  const base: VendorFailure = {
    kind: "unknown",
    ...(detail ? { detail } : {}),
    ...(typeof operation === "string" ? { operation } : {}),
    ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
  };
  if (status !== undefined) return { ...base, kind: kindOfStatus(status, retryAfter), status };
  const network = networkFailureOf(error);
  if (isTimeout(error, network))
    return { ...base, kind: "timeout", ...(network ? { reason: network.code } : {}) };
  if (network) return { ...base, kind: "unreachable", reason: network.code };
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
      merged.kind = kindOfStatus(status, merged.retryAfterMs);
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
