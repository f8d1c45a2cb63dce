import type { Principal } from "@switchboard/agent-runtime";
import { SwitchboardError } from "@switchboard/common";

/**
 * Who may read a document: everyone, or the named groups and users (a user by the `subject` of
 * agent-runtime's Principal, the verified token's `sub`; a group as the principal's `groups` name it,
 * from OIDC_GROUP_CLAIM).
 */
export type Readers = "everyone" | { groups?: string[]; users?: string[] };

/**
 * Readers are kept as tags in one `text[]` column, matched against the principal's own tags with `&&`
 * (any in common). The prefixes keep a group named like a user (or like `everyone`) from matching it.
 */
const EVERYONE = "everyone";
const groupTag = (group: string) => `group:${group}`;
const userTag = (subject: string) => `user:${subject}`;

/** A document's reader tags. A document with no reader named is refused: it would be readable by nobody. */
export function readerTags(readers: Readers, documentId: string): string[] {
  if (readers === EVERYONE) return [EVERYONE];
  const tags = [
    ...(readers.groups ?? []).filter((group) => group.trim() !== "").map(groupTag),
    ...(readers.users ?? []).filter((user) => user.trim() !== "").map(userTag),
  ];
  if (tags.length === 0) {
    throw new SwitchboardError(
      "knowledge.readers",
      "user",
      `Document "${documentId}" names no reader: give it readers "everyone", or groups or users who may read it.`,
    );
  }
  return [...new Set(tags)];
}

/**
 * The tags a principal reads by: everyone's, plus, for a principal from a verified token, its own
 * subject and its groups. An unauthenticated principal (AUTH_MODE=none's local one) reads only what
 * everyone may read, whatever it claims.
 */
export function principalTags(principal: Principal): string[] {
  if (!principal.authenticated || principal.subject === "") return [EVERYONE];
  return [EVERYONE, userTag(principal.subject), ...principal.groups.map(groupTag)];
}
