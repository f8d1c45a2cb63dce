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
    /**
     * Someone else answering this caller's question (`Switchboard-Approver`), their own token
     * verified like the caller's: what decides whether they may approve the caller's change.
     */
    readonly approver?: AuthenticatedCaller,
    /**
     * Who vouched for the caller: the identity provider (the user's own token), or the supervisor
     * (a short-lived token it signed for this agent alone, auth/hop-token.ts). Only the first is the
     * user's identity-provider token, which a vendor that trusts the provider may be handed.
     */
    readonly via: "idp" | "supervisor" = "idp",
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

/** The verified approver a request carries beside its caller, when it is someone else. */
export function approverOf(user: User | undefined): AuthenticatedCaller | undefined {
  if (!(user instanceof AuthenticatedCaller) || !user.approver) return undefined;
  return user.approver.subject === user.subject ? undefined : user.approver;
}

/**
 * The caller's identity-provider token, when they came with one (not with a supervisor's hop
 * token): what a vendor trusting that provider may be handed (AWS web identity, FORWARD_JWT_TO_MCP).
 * Never forwarded to another agent: the supervisor signs each hop its own token (auth/hop-token.ts).
 */
export function tokenOf(user: User | undefined): string | undefined {
  return user instanceof AuthenticatedCaller && user.via === "idp" ? user.token : undefined;
}
