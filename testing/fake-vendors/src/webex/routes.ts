import { type Handler, isRecord, type RouteContext, VendorHttpError } from "../vendor-server.js";
import { webexId } from "./seed.js";
import type { Membership, Room, WebexState } from "./state.js";

/** `max` as Webex reads it: a positive number, at most 1000, default 50 when not given. */
function max(query: URLSearchParams): number {
  const given = query.get("max");
  if (given === null) return 50;
  const value = Number(given);
  if (!Number.isInteger(value) || value < 1 || value > 1000)
    throw new VendorHttpError(400, "Invalid max parameter: must be between 1 and 1000.");
  return value;
}

/** The API lets the token's person see only rooms they are a member of; others are 404, as in Webex. */
function memberRoom(state: WebexState, roomId: string): Room {
  const room = state.rooms.find((one) => one.id === roomId);
  const joined = state.memberships.some((one) => one.roomId === roomId && one.personId === state.me.id);
  if (!room || !joined) throw new VendorHttpError(404, "The requested resource could not be found.");
  return room;
}

function body(ctx: RouteContext): Record<string, unknown> {
  return isRecord(ctx.body) ? ctx.body : {};
}

/**
 * A handler per operation of Webex's messaging description (`specs/webex/messaging.json`) the agent
 * uses, by its operationId; the description matches and validates each request and answer.
 */
export function webexOperations(state: WebexState): Record<string, Handler> {
  const listRooms: Handler = ({ query }) => {
    const type = query.get("type");
    const rooms = state.rooms
      .filter((room) =>
        state.memberships.some((one) => one.roomId === room.id && one.personId === state.me.id),
      )
      .filter((room) => !type || room.type === type)
      .sort((a, b) =>
        query.get("sortBy") === "created"
          ? b.created.localeCompare(a.created)
          : b.lastActivity.localeCompare(a.lastActivity),
      );
    return { status: 200, body: { items: rooms.slice(0, max(query)) } };
  };

  const listMessages: Handler = ({ query }) => {
    const roomId = query.get("roomId");
    if (!roomId) throw new VendorHttpError(400, "roomId is required.");
    memberRoom(state, roomId);
    const parentId = query.get("parentId");
    // Newest first, as Webex lists them; with parentId, that thread's replies only.
    const items = state.messages
      .filter((one) => one.roomId === roomId && (!parentId || one.parentId === parentId))
      .sort((a, b) => b.created.localeCompare(a.created));
    return { status: 200, body: { items: items.slice(0, max(query)) } };
  };

  const postMessage: Handler = (ctx) => {
    const input = body(ctx);
    const roomId = typeof input.roomId === "string" ? input.roomId : "";
    if (!roomId) throw new VendorHttpError(400, "roomId, toPersonId or toPersonEmail is required.");
    const room = memberRoom(state, roomId);
    const text = typeof input.markdown === "string" ? input.markdown : input.text;
    if (typeof text !== "string" || text.trim() === "")
      throw new VendorHttpError(400, "text, markdown, files or attachments is required.");
    const parentId = typeof input.parentId === "string" ? input.parentId : undefined;
    if (parentId) {
      const parent = state.messages.find((one) => one.id === parentId && one.roomId === roomId);
      if (!parent)
        throw new VendorHttpError(400, "Invalid parentId: the parent message is not in this room.");
      if (parent.parentId) throw new VendorHttpError(400, "Invalid parentId: replies cannot be replied to.");
    }
    const message = {
      id: webexId("MESSAGE"),
      roomId,
      roomType: room.type,
      ...(parentId ? { parentId } : {}),
      text,
      ...(typeof input.markdown === "string" ? { markdown: input.markdown } : {}),
      personId: state.me.id,
      personEmail: state.me.emails[0] ?? "",
      created: new Date().toISOString(),
    };
    state.messages.push(message);
    room.lastActivity = message.created;
    state.changes.push({ action: "post", message });
    return { status: 200, body: message };
  };

  const createRoom: Handler = (ctx) => {
    const title = body(ctx).title;
    if (typeof title !== "string" || title.trim() === "")
      throw new VendorHttpError(400, "title is required.");
    const now = new Date().toISOString();
    const room: Room = {
      id: webexId("ROOM"),
      title,
      type: "group",
      isLocked: false,
      lastActivity: now,
      creatorId: state.me.id,
      created: now,
    };
    state.rooms.push(room);
    // The creator becomes the room's first member.
    state.memberships.push({
      id: webexId("MEMBERSHIP"),
      roomId: room.id,
      personId: state.me.id,
      personEmail: state.me.emails[0] ?? "",
      personDisplayName: state.me.displayName,
      personOrgId: state.me.orgId,
      isModerator: false,
      isMonitor: false,
      created: now,
    });
    state.changes.push({ action: "create-room", room });
    return { status: 200, body: room };
  };

  const addMember: Handler = (ctx) => {
    const input = body(ctx);
    const room = memberRoom(state, typeof input.roomId === "string" ? input.roomId : "");
    const email = typeof input.personEmail === "string" ? input.personEmail.toLowerCase() : "";
    if (!email) throw new VendorHttpError(400, "personId or personEmail is required.");
    if (state.memberships.some((one) => one.roomId === room.id && one.personEmail === email))
      throw new VendorHttpError(409, "Person is already in the room.");
    const person = state.people.find((one) => one.emails.includes(email));
    const membership: Membership = {
      id: webexId("MEMBERSHIP"),
      roomId: room.id,
      personId: person?.id ?? webexId("PEOPLE"),
      personEmail: email,
      personDisplayName: person?.displayName ?? email,
      personOrgId: person?.orgId ?? "external-org",
      isModerator: input.isModerator === true,
      isMonitor: false,
      created: new Date().toISOString(),
    };
    state.memberships.push(membership);
    state.changes.push({ action: "add-member", membership });
    return { status: 200, body: membership };
  };

  return {
    "Get My Own Details": () => ({ status: 200, body: state.me }),
    "List Rooms": listRooms,
    "Create a Room": createRoom,
    "Get Room Details": ({ params }) => ({ status: 200, body: memberRoom(state, params.roomId ?? "") }),
    "List Messages": listMessages,
    "Create a Message": postMessage,
    "List Memberships": ({ query }) => {
      const roomId = query.get("roomId");
      if (!roomId) throw new VendorHttpError(400, "roomId is required to list a room's members.");
      memberRoom(state, roomId);
      return {
        status: 200,
        body: { items: state.memberships.filter((one) => one.roomId === roomId).slice(0, max(query)) },
      };
    },
    "Create a Membership": addMember,
  };
}
