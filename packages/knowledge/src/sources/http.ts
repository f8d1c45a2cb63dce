import { maskUrlSecrets, SwitchboardError } from "@switchboard/common";

/** How sources reach their vendors: the fetch to use, the sync's abort signal, and the largest body read. */
export interface SourceHttp {
  fetch: typeof fetch;
  signal?: AbortSignal;
  /** The most bytes one answer may have (KNOWLEDGE_FETCH_MAX_BYTES). */
  maxBytes: number;
}

/** What an answer's failure means, for the error a person reads on the sources page. */
export interface Asking {
  /** The vendor and source, as the sentence's subject: `Confluence (source "ops-wiki")`. */
  who: string;
  /** The variable holding the credential the request went with, named in a 401/403's fix. */
  tokenEnv?: string;
}

/** A vendor's answer that was not a success: its status, and the message a person reads. */
export class SourceHttpError extends SwitchboardError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super("knowledge.source.http", status === 401 || status === 403 ? "user" : "system", message);
  }
}

/** A non-2xx answer as the error a person reads: the vendor, the status, the URL, and for 401/403 the credential to check. */
export function httpFailure(status: number, url: string, asking: Asking): SourceHttpError {
  const where = `${asking.who} answered HTTP ${status} for ${maskUrlSecrets(url)}`;
  if ((status === 401 || status === 403) && asking.tokenEnv) {
    return new SourceHttpError(
      status,
      `${where}: the credential in ${asking.tokenEnv} was refused or may not read this; check it and its permissions`,
    );
  }
  if (status === 404) {
    return new SourceHttpError(
      status,
      `${where}: nothing is there; check the source's URL and what it names`,
    );
  }
  return new SourceHttpError(status, where);
}

/** `fetch` with the sync's signal; a non-2xx answer throws naming the vendor, the URL and the fix. */
export async function request(
  http: SourceHttp,
  url: string,
  init: RequestInit,
  asking: Asking,
): Promise<Response> {
  const response = await sendOrExplain(http, url, init, asking);
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw httpFailure(response.status, url, asking);
  }
  return response;
}

/**
 * `fetch` with the sync's signal; a request that gets no answer (refused, unresolvable, a guarded
 * address) throws naming the vendor, the URL and the cause fetch keeps in `cause`.
 */
export async function sendOrExplain(
  http: SourceHttp,
  url: string | URL,
  init: RequestInit,
  asking: Asking,
): Promise<Response> {
  try {
    return await http.fetch(url, { ...init, ...(http.signal ? { signal: http.signal } : {}) });
  } catch (error) {
    if (http.signal?.aborted) throw error;
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new SwitchboardError(
      "knowledge.source.unreachable",
      "system",
      `${asking.who} could not be reached at ${maskUrlSecrets(String(url))}: ${why}`,
      { cause: error },
    );
  }
}

/**
 * An answer's body, refused past `maxBytes` (by its Content-Length, else while it is read), so a huge
 * or endless page cannot fill the memory.
 */
export async function readBody(response: Response, maxBytes: number, url: string): Promise<Uint8Array> {
  const tooLarge = () =>
    new SwitchboardError(
      "knowledge.source.too_large",
      "user",
      `${maskUrlSecrets(url)} is larger than ${maxBytes} bytes: raise KNOWLEDGE_FETCH_MAX_BYTES to read it`,
    );
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += part.byteLength;
    if (size > maxBytes) {
      await response.body.cancel().catch(() => {});
      throw tooLarge();
    }
    parts.push(part);
  }
  return Buffer.concat(parts);
}

/** A JSON answer, read under the size limit. */
export async function getJson<T>(
  http: SourceHttp,
  url: string,
  headers: Record<string, string>,
  asking: Asking,
): Promise<T> {
  const response = await request(http, url, { headers: { accept: "application/json", ...headers } }, asking);
  const body = await readBody(response, http.maxBytes, url);
  try {
    return JSON.parse(new TextDecoder().decode(body)) as T;
  } catch {
    throw new SwitchboardError(
      "knowledge.source.http",
      "system",
      `${asking.who} answered ${maskUrlSecrets(url)} with something that is not JSON: check the source's URL`,
    );
  }
}
