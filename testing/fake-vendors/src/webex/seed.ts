import { randomUUID } from "node:crypto";
import type { Membership, Message, Person, Room, WebexState } from "./state.js";

const ORG = "acme-org";

/** A Webex id as the API writes them: base64 of `ciscospark://us/<KIND>/<uuid>`, unpadded. */
export function webexId(kind: "ROOM" | "MESSAGE" | "MEMBERSHIP" | "PEOPLE" | "ORGANIZATION"): string {
  return Buffer.from(`ciscospark://us/${kind}/${randomUUID()}`).toString("base64").replace(/=+$/, "");
}

/** Two group rooms with a short thread in one, the bot and three people. */
export function seedWebex(now = new Date()): WebexState {
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString();
  const person = (email: string, displayName: string): Person => ({
    id: webexId("PEOPLE"),
    emails: [email],
    displayName,
    orgId: ORG,
  });
  const me = person("switchboard@webex.bot", "Switchboard");
  const alice = person("alice@example.com", "Alice Ops");
  const bob = person("bob@example.com", "Bob Dev");
  const carol = person("carol@example.com", "Carol Data");
  const room = (title: string, minutesAgo: number): Room => ({
    id: webexId("ROOM"),
    title,
    type: "group",
    isLocked: false,
    lastActivity: at(minutesAgo),
    creatorId: alice.id,
    created: at(10_000),
  });
  const incidents = room("Platform incidents", 5);
  const releases = room("Release train", 60);
  const member = (roomId: string, who: Person, isModerator = false): Membership => ({
    id: webexId("MEMBERSHIP"),
    roomId,
    personId: who.id,
    personEmail: who.emails[0] ?? "",
    personDisplayName: who.displayName,
    personOrgId: ORG,
    isModerator,
    isMonitor: false,
    created: at(9_000),
  });
  const message = (
    roomId: string,
    who: Person,
    text: string,
    minutesAgo: number,
    parentId?: string,
  ): Message => ({
    id: webexId("MESSAGE"),
    roomId,
    roomType: "group",
    ...(parentId ? { parentId } : {}),
    text,
    personId: who.id,
    personEmail: who.emails[0] ?? "",
    created: at(minutesAgo),
  });
  const outage = message(incidents.id, alice, "checkout is returning 502s since 10:02", 30);
  return {
    me,
    people: [me, alice, bob, carol],
    rooms: [incidents, releases],
    messages: [
      outage,
      message(incidents.id, bob, "rolling back checkout to v41", 20, outage.id),
      message(incidents.id, alice, "502s gone after the rollback", 5, outage.id),
      message(releases.id, bob, "release 42 is cut", 60),
    ],
    memberships: [
      member(incidents.id, me),
      member(incidents.id, alice, true),
      member(incidents.id, bob),
      member(releases.id, me),
      member(releases.id, bob, true),
    ],
    changes: [],
  };
}
