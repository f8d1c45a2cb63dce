import type { User } from "@a2a-js/sdk/server";
import { AuthenticatedCaller } from "../auth/caller.js";

/**
 * Who is acting, as the policy sees them: taken from the verified token only (never from a
 * message's text or metadata). Under AUTH_MODE=none everyone is the one local principal.
 */
export interface Principal {
  subject: string;
  groups: string[];
  /** Display claims, for the audit trail. */
  name?: string;
  email?: string;
  authenticated: boolean;
}

export const LOCAL_PRINCIPAL: Principal = { subject: "local", groups: [], authenticated: false };

/** The claims CAIPE looks for groups in when OIDC_GROUP_CLAIM is unset. */
export const DEFAULT_GROUP_CLAIMS = ["groups", "members", "roles"];

/**
 * A verified token's principal. `groupClaims` are the claim names to read groups from (CAIPE's
 * OIDC_GROUP_CLAIM, comma-separated); a claim may be a list or one comma- or space-separated string,
 * and Keycloak's `realm_access.roles` nesting is followed by a dotted name.
 */
export function principalFromClaims(claims: Record<string, unknown>, groupClaims: string[]): Principal {
  const subject = typeof claims.sub === "string" ? claims.sub : "";
  const groups = new Set<string>();
  for (const claim of groupClaims) {
    for (const group of groupsIn(valueAt(claims, claim))) groups.add(group);
  }
  const name = stringClaim(claims.name) ?? stringClaim(claims.preferred_username);
  const email = stringClaim(claims.email);
  return {
    subject,
    groups: [...groups],
    ...(name ? { name } : {}),
    ...(email ? { email } : {}),
    authenticated: true,
  };
}

function valueAt(claims: Record<string, unknown>, path: string): unknown {
  if (path in claims) return claims[path];
  let current: unknown = claims;
  for (const part of path.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function groupsIn(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(/[,\s]+/) : [];
  return items
    .filter((item): item is string => typeof item === "string")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** The principal of an A2A caller: its verified claims, or the local principal when anonymous. */
export function principalOf(user: User | undefined, groupClaims: string[]): Principal {
  return user instanceof AuthenticatedCaller
    ? { ...principalFromClaims(user.claims, groupClaims), subject: user.subject }
    : LOCAL_PRINCIPAL;
}
