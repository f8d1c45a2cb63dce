import { createHash } from "node:crypto";
import type { User } from "@a2a-js/sdk/server";

/**
 * A caller whose bearer token was verified: its subject, the token to forward to subagents, and
 * the token's verified claims (groups, name, email: what policies decide on and audits record).
 */
export class AuthenticatedCaller implements User {
  constructor(
    readonly subject: string,
    readonly token: string,
    readonly claims: Readonly<Record<string, unknown>> = {},
  ) {}

  get isAuthenticated(): boolean {
    return true;
  }

  /** The SDK scopes stored tasks by this name, so a caller only ever sees their own tasks. */
  get userName(): string {
    return subjectKey(this.subject);
  }
}

/** First 16 hex characters of sha256(sub): identifies a user in keys without storing the subject. */
export function subjectKey(subject: string): string {
  return createHash("sha256").update(subject).digest("hex").slice(0, 16);
}

/**
 * The LangGraph thread for an A2A conversation: the contextId as sent for anonymous callers, and
 * namespaced by the caller's subject otherwise, so one user can never address another's thread.
 */
export function threadIdFor(contextId: string, user: User | undefined): string {
  return user instanceof AuthenticatedCaller ? `${subjectKey(user.subject)}:${contextId}` : contextId;
}

export function tokenOf(user: User | undefined): string | undefined {
  return user instanceof AuthenticatedCaller ? user.token : undefined;
}
