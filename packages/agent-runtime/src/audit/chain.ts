import { createHash, createHmac } from "node:crypto";
import canonicalize from "canonicalize";
import type { AuditEntry, ChainedEntry } from "./entry.js";
import type { AuditKey } from "./key.js";

/**
 * The chain over an agent's audit lines: each line's link covers its content, its sequence number,
 * the key's id and the previous line's link, so a line edited in place, removed or reordered breaks
 * every check after it. With a key (AUDIT_HMAC_KEY) the link is HMAC-SHA-256: a database writer
 * without the key cannot recompute the links after an edit. Lines written before a key was set are
 * linked with plain SHA-256 (no `keyId`) and verify as before. Content is in RFC 8785 canonical
 * JSON, so the link does not depend on key order or on how the database returns numbers.
 */
export function linkOf(seq: number, prev: string, entry: AuditEntry, key?: AuditKey): string {
  const text =
    canonicalize({ seq, prev, ...(key ? { keyId: key.id } : {}), entry: withoutUndefined(entry) }) ?? "";
  return key
    ? createHmac("sha256", key.secret).update(text).digest("hex")
    : createHash("sha256").update(text).digest("hex");
}

/** The stored line: the entry, its place and its link (and the key's id when keyed). */
export function chained(seq: number, prev: string, entry: AuditEntry, key?: AuditKey): ChainedEntry {
  return { ...entry, seq, prev, ...(key ? { keyId: key.id } : {}), hash: linkOf(seq, prev, entry, key) };
}

/** The entry a stored line holds, without its chain fields. */
export function entryOf(line: ChainedEntry): AuditEntry {
  const { seq: _seq, prev: _prev, hash: _hash, keyId: _keyId, ...entry } = line;
  return entry;
}

function withoutUndefined(entry: AuditEntry): Record<string, unknown> {
  return JSON.parse(JSON.stringify(entry)) as Record<string, unknown>;
}
