/**
 * MongoDB connection strings as people write them in env files: passwords often hold reserved
 * characters (`/ + = @ : ? #` …) unencoded, which the driver rejects or misreads. These helpers
 * percent-encode the credentials once, never twice, and redact them for messages and logs.
 */

import { maskUserinfo } from "@switchboard/common";

interface UriParts {
  scheme: string;
  /** Raw userinfo as written (before the `@`), if any. */
  userinfo?: string;
  /** Host list, e.g. `db1:27017,db2:27017`. */
  hosts: string;
  /** Everything after the host list: `/db?options`, possibly empty. */
  rest: string;
}

const SCHEME = /^(mongodb(?:\+srv)?):\/\//i;
const HOST_LIST = /^[A-Za-z0-9._~%[\]:,-]+$/;
// Characters RFC 3986 allows unencoded in userinfo (unreserved, sub-delims, pct-encoded).
const ENCODED_USER = /^(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})*$/;

export function isMongoUri(uri: string): boolean {
  return SCHEME.test(uri);
}

function splitUri(uri: string): UriParts {
  const scheme = SCHEME.exec(uri);
  if (!scheme?.[1]) {
    throw new Error("A MongoDB URI starts with mongodb:// or mongodb+srv://");
  }
  const body = uri.slice(scheme[0].length);
  const ats = [...body.matchAll(/@/g)].map((match) => match.index);
  // Prefer the first `@` when it yields well-formed credentials (an already-encoded URI stays as is);
  // otherwise the credentials end at the last `@` that is followed by a plausible host list.
  const candidates = ats.length > 0 ? [ats[0] as number, ...ats.slice(1).reverse()] : [];
  for (const [rank, at] of candidates.entries()) {
    const userinfo = body.slice(0, at);
    const { hosts, rest } = splitHosts(body.slice(at + 1));
    if (!HOST_LIST.test(hosts)) continue;
    if (rank === 0 && !isEncodedUserinfo(userinfo) && candidates.length > 1) continue;
    return { scheme: scheme[1], userinfo, hosts, rest };
  }
  return { scheme: scheme[1], ...splitHosts(body) };
}

function splitHosts(text: string): { hosts: string; rest: string } {
  const end = text.search(/[/?]/);
  return end === -1 ? { hosts: text, rest: "" } : { hosts: text.slice(0, end), rest: text.slice(end) };
}

function isEncodedUserinfo(userinfo: string): boolean {
  const colon = userinfo.indexOf(":");
  const user = colon === -1 ? userinfo : userinfo.slice(0, colon);
  const password = colon === -1 ? "" : userinfo.slice(colon + 1);
  return ENCODED_USER.test(user) && ENCODED_USER.test(password);
}

/** Decodes valid %XX sequences and keeps any other `%` literally (it was never an escape). */
function decodeLenient(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

function encodePart(text: string): string {
  return encodeURIComponent(decodeLenient(text));
}

/** Percent-encodes the username and password; an already-encoded URI comes back unchanged. */
export function encodeMongoUri(uri: string): string {
  const parts = splitUri(uri);
  if (parts.userinfo === undefined || isEncodedUserinfo(parts.userinfo)) return uri;
  const colon = parts.userinfo.indexOf(":");
  const userinfo =
    colon === -1
      ? encodePart(parts.userinfo)
      : `${encodePart(parts.userinfo.slice(0, colon))}:${encodePart(parts.userinfo.slice(colon + 1))}`;
  return join(parts, userinfo);
}

/** The URI with its password replaced by `****`, safe for logs and error messages. */
export function redactMongoUri(uri: string): string {
  if (!isMongoUri(uri)) return "(not a mongodb:// URI)";
  const parts = splitUri(uri);
  if (parts.userinfo === undefined) return uri;
  return join(parts, maskUserinfo(parts.userinfo));
}

/** The database named in the URI path (`mongodb://host/<db>?…`), if any. */
export function databaseFromUri(uri: string): string | undefined {
  const { rest } = splitUri(uri);
  const path = rest.startsWith("/") ? rest.slice(1).split("?")[0] : "";
  return path ? decodeLenient(path) : undefined;
}

/** The host list, for messages: `db1:27017,db2:27017`. */
export function hostsFromUri(uri: string): string {
  return splitUri(uri).hosts;
}

function join(parts: UriParts, userinfo: string): string {
  return `${parts.scheme}://${userinfo}@${parts.hosts}${parts.rest}`;
}
