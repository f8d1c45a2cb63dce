import type { Readers } from "../readers.js";

/** Who a vendor says may read something: everyone, or named groups and users (vendor user names). */
export type Grant = "everyone" | { groups: string[]; users: string[] };

/**
 * A vendor's grant as the store's readers. Vendor users count only with `matchUsers` (the vendor's
 * user names are the token subjects); a grant left naming nobody is `undefined`: nobody here may read
 * it, and it is not stored. It never becomes wider than the grant.
 */
export function readersOf(grant: Grant, options: { matchUsers: boolean }): Readers | undefined {
  if (grant === "everyone") return "everyone";
  const groups = unique(grant.groups);
  const users = options.matchUsers ? unique(grant.users) : [];
  if (groups.length + users.length === 0) return undefined;
  return { ...(groups.length > 0 ? { groups } : {}), ...(users.length > 0 ? { users } : {}) };
}

/** What two grants that must both hold name in common (tags match any one, so "in both" is the names in both). */
export function bothOf(first: Grant, second: Grant): Grant {
  if (first === "everyone") return second;
  if (second === "everyone") return first;
  return {
    groups: first.groups.filter((group) => second.groups.includes(group)),
    users: first.users.filter((user) => second.users.includes(user)),
  };
}

const unique = (values: string[]) => [...new Set(values.map((value) => value.trim()).filter(Boolean))].sort();
