/** The fields of Webex's messaging API objects that the tools show. */
export interface WebexRoom {
  id: string;
  title: string;
  type: "direct" | "group";
  isLocked?: boolean;
  teamId?: string;
  lastActivity?: string;
  created?: string;
}

export interface WebexMessage {
  id: string;
  roomId: string;
  parentId?: string;
  text?: string;
  markdown?: string;
  personEmail?: string;
  created: string;
}

export interface WebexMembership {
  id: string;
  roomId: string;
  personEmail: string;
  personDisplayName?: string;
  isModerator?: boolean;
}

/** `Platform incidents [group] (id …), last activity …`. */
export function formatRoom(room: WebexRoom): string {
  const locked = room.isLocked ? ", moderated" : "";
  return `${room.title} [${room.type}${locked}] (id ${room.id}), last activity ${room.lastActivity ?? room.created ?? "unknown"}`;
}

/** `2026-… alice@example.com: text (message id …; 2 replies)`. */
export function formatMessage(message: WebexMessage, replies = 0): string {
  const thread = replies > 0 ? `; ${replies} ${replies === 1 ? "reply" : "replies"}` : "";
  const inThread = message.parentId ? "  ↳ " : "";
  return `${inThread}${message.created} ${message.personEmail ?? "someone"}: ${message.text ?? message.markdown ?? ""} (message id ${message.id}${thread})`;
}

export function formatMember(member: WebexMembership): string {
  const name =
    member.personDisplayName && member.personDisplayName !== member.personEmail
      ? `${member.personDisplayName} `
      : "";
  return `${name}<${member.personEmail}>${member.isModerator ? " (moderator)" : ""}`;
}
