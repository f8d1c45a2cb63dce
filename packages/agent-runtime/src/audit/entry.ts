/**
 * One line of an agent's audit trail. A change is two lines: the attempt, written before the
 * change runs, and its outcome, written after (a crash leaves the attempt alone, which says the
 * change may have happened). A denial is one line. Lines are never updated: see chain.ts.
 */
export interface AuditEntry {
  kind: "attempt" | "outcome" | "denial";
  /** ISO time the line was written. */
  at: string;
  agent: string;
  principal: AuditPrincipal;
  tool: string;
  /** The call's arguments, secrets redacted. */
  args: Record<string, unknown>;
  /** What the call acts on, as the tool declares it (e.g. `{ project: "PLAT" }`). */
  resource?: Record<string, string>;
  decision: "allow" | "deny";
  /** The policies that decided (their ids), or why none did. */
  policy: string[];
  /** Who answered the confirmation (a subject), for an attempt that was confirmed. */
  confirmedBy?: string;
  /**
   * For a decision on another user's change (the `approve` action): whose change it was. On a
   * denial the principal is the one refused; on an attempt `confirmedBy` names the approver.
   */
  requester?: AuditPrincipal;
  /** For an outcome line. */
  outcome?: "done" | "failed" | "declined";
  /** For an outcome line: the attempt's sequence number. */
  attempt?: number;
  /** A failed change's message, secrets redacted. */
  error?: string;
  contextId?: string;
  traceId?: string;
}

/** Who acted: the verified token's subject and the claims a person reads. */
export interface AuditPrincipal {
  subject: string;
  name?: string;
  email?: string;
}

/** A line as stored: its place in the chain and the links that tie it to the line before. */
export interface ChainedEntry extends AuditEntry {
  seq: number;
  /** The previous line's link ("" for the first line the agent wrote). */
  prev: string;
  /** The id of the key whose HMAC `hash` is; absent on lines written before a key was set. */
  keyId?: string;
  /** This line's link: HMAC-SHA-256 under the key, or SHA-256 on an unkeyed line (chain.ts). */
  hash: string;
}
