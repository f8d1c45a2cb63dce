import type { AuditEntry, ChainedEntry } from "./entry.js";

/** Where an agent's audit lines go: appended, never changed, read back by those allowed. */
export interface AuditLog {
  /** Appends a line and returns it as stored: its sequence number and link. */
  append(entry: AuditEntry): Promise<ChainedEntry>;
  /** Lines in sequence order, newest last, matching the filter. */
  read(filter: AuditFilter): Promise<ChainedEntry[]>;
  /** Every line in sequence order, for verification. */
  all(): AsyncIterable<ChainedEntry>;
}

export interface AuditFilter {
  subject?: string;
  since?: Date;
  until?: Date;
  /** At most this many lines, the newest ones (default 200). */
  limit?: number;
}

export const DEFAULT_AUDIT_LIMIT = 200;
