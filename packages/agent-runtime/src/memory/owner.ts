import type { User } from "@a2a-js/sdk/server";
import { AuthenticatedCaller, subjectKey } from "../auth/caller.js";
import type { Principal } from "../authz/principal.js";

/** Under AUTH_MODE=none everyone is the one local user, whose memories these are. */
export const LOCAL_OWNER = "local";

/**
 * Whose memories: the same key as the caller's threads (first 16 hex of sha256(sub)), from the
 * verified token only. Nothing a user sends or a model writes names an owner.
 */
export function ownerOfPrincipal(principal: Principal | undefined): string {
  return principal?.authenticated && principal.subject ? subjectKey(principal.subject) : LOCAL_OWNER;
}

/** The owner for an HTTP caller (GET /memories and friends). */
export function ownerOfUser(user: User): string {
  return user instanceof AuthenticatedCaller ? subjectKey(user.subject) : LOCAL_OWNER;
}

/** The store namespace of one owner's memories. */
export function memoryNamespace(owner: string): string[] {
  return ["memories", owner];
}
