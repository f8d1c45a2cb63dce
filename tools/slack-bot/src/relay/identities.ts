import type { ChatPlace } from "./chat-platform.js";

/** Who a chat user is at the supervisor. */
export type UserIdentity =
  /** Sign-in is off (AUTH_MODE=none): every caller is the one local principal. */
  | { kind: "anonymous" }
  /** The user's own access token, obtained from their linked sign-in. */
  | { kind: "linked"; token: string; subject: string };

/** Where chat users' identities come from: identity/ has the OIDC-linked one and the anonymous one. */
export interface Identities {
  /** The user's identity now; undefined when they have not linked (or their link no longer works). */
  identify(workspace: string, user: string): Promise<UserIdentity | undefined>;
  /** A one-time link through the web chat's sign-in that links this chat user. */
  linkFor(place: ChatPlace, user: string): Promise<string>;
  /** Forgets a token the supervisor refused, so the next turn asks for a fresh one. */
  refused(workspace: string, user: string): Promise<void>;
}

/** AUTH_MODE=none: nobody signs in, the supervisor serves one local principal. */
export const anonymousIdentities: Identities = {
  identify: async () => ({ kind: "anonymous" }),
  linkFor: async () => {
    throw new Error("Sign-in is off (AUTH_MODE=none): there is nothing to link.");
  },
  refused: async () => {},
};
