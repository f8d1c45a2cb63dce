import { type AgentTool, defineTool, type ToolCallContext } from "@switchboard/agent-runtime";
import { z } from "zod";
import type { WebexClient } from "./client.js";
import { formatMember, formatMessage, formatRoom, type WebexMessage, type WebexRoom } from "./format.js";

const room = z.string().min(1).describe("The room's (space's) title, or its Webex id");

/** Webex ids are base64 of `ciscospark://…`, so they all start with this. */
const isWebexId = (value: string) => value.startsWith("Y2lzY29zcGFyazovL");

/**
 * A room as a policy names it: its id as Webex writes it, else its title in lower case, since titles
 * are matched ignoring case (`resolveRoom`). A call naming the room by title is not in a policy's
 * room named by id, and the other way round.
 */
export function roomName(given: string): string {
  const value = given.trim();
  return isWebexId(value) ? value : value.toLowerCase();
}

export function webexTools(webex: WebexClient): AgentTool[] {
  return [
    listRooms(webex),
    getRoom(webex),
    listMessages(webex),
    listMembers(webex),
    postMessage(webex),
    createRoom(webex),
    addMember(webex),
  ];
}

const listRooms = (webex: WebexClient) =>
  defineTool({
    name: "list_rooms",
    description: "List the Webex rooms (spaces) the agent is in, most recently active first",
    schema: z.object({
      type: z.enum(["group", "direct"]).optional(),
      max: z.number().int().min(1).max(100).default(50),
    }),
    run: async ({ type, max }, ctx) => {
      const { items = [] } = await webex.call(ctx, (api) => api.listRooms({ type, max }));
      return items.length ? items.map(formatRoom).join("\n") : "The agent is in no Webex rooms.";
    },
  });

const getRoom = (webex: WebexClient) =>
  defineTool({
    name: "get_room",
    description: "Get one Webex room: title, type, id, last activity",
    schema: z.object({ room }),
    resource: ({ room }) => ({ room: roomName(room) }),
    run: async ({ room }, ctx) => formatRoom(await resolveRoom(webex, ctx, room)),
  });

const listMessages = (webex: WebexClient) =>
  defineTool({
    name: "list_messages",
    description:
      "Read a Webex room's latest messages, newest first, with how many replies each thread has; with thread (a message id), that thread's replies",
    schema: z.object({
      room,
      thread: z.string().optional().describe("The id of the message that started the thread"),
      max: z.number().int().min(1).max(100).default(20),
    }),
    resource: ({ room }) => ({ room: roomName(room) }),
    run: async ({ room, thread, max }, ctx) => {
      const target = await resolveRoom(webex, ctx, room);
      const { items = [] } = await webex.call(ctx, (api) =>
        api.listMessages({ roomId: target.id, max, ...(thread ? { parentId: thread } : {}) }),
      );
      if (items.length === 0)
        return thread ? "That thread has no replies." : `No messages in ${target.title}.`;
      const replies = (message: WebexMessage) => items.filter((one) => one.parentId === message.id).length;
      return items.map((one) => formatMessage(one, thread ? 0 : replies(one))).join("\n");
    },
  });

const listMembers = (webex: WebexClient) =>
  defineTool({
    name: "list_members",
    description: "List the people in a Webex room, with its moderators",
    schema: z.object({ room }),
    resource: ({ room }) => ({ room: roomName(room) }),
    run: async ({ room }, ctx) => {
      const target = await resolveRoom(webex, ctx, room);
      const { items = [] } = await webex.call(ctx, (api) => api.listMemberships(target.id));
      return `${target.title} has ${items.length} ${items.length === 1 ? "member" : "members"}:\n${items.map(formatMember).join("\n")}`;
    },
  });

const postMessage = (webex: WebexClient) =>
  defineTool({
    name: "post_message",
    description:
      "Post a message (markdown) to a Webex room, or reply in a thread given the thread's first message id",
    schema: z.object({
      room,
      text: z.string().min(1).max(7000),
      thread: z.string().optional().describe("Reply in this thread: the id of its first message"),
    }),
    confirm: ({ room, text, thread }) =>
      `Post to the Webex room "${room}"${thread ? " (as a reply in a thread)" : ""}: "${text}".`,
    resource: ({ room }) => ({ room: roomName(room) }),
    run: async ({ room, text, thread }, ctx) => {
      const target = await resolveRoom(webex, ctx, room);
      const posted = await webex.call(ctx, (api) =>
        api.postMessage({ roomId: target.id, markdown: text, ...(thread ? { parentId: thread } : {}) }),
      );
      return `Posted to ${target.title}${thread ? " in the thread" : ""} (message id ${posted.id}).`;
    },
  });

const createRoom = (webex: WebexClient) =>
  defineTool({
    name: "create_room",
    description: "Create a Webex room (space); the agent becomes its first member",
    schema: z.object({
      title: z.string().min(1).max(200),
      team: z.string().optional().describe("A Webex team id to create the room in"),
    }),
    confirm: ({ title, team }) => `Create the Webex room "${title}"${team ? ` in team ${team}` : ""}.`,
    resource: ({ team }): Record<string, string> => (team ? { team } : {}),
    run: async ({ title, team }, ctx) => {
      const created = await webex.call(ctx, (api) =>
        api.createRoom({ title, ...(team ? { teamId: team } : {}) }),
      );
      return `Created the room ${formatRoom(created)}.`;
    },
  });

const addMember = (webex: WebexClient) =>
  defineTool({
    name: "add_member",
    description: "Add a person to a Webex room by email, optionally as a moderator",
    schema: z.object({
      room,
      email: z.email().transform((value) => value.toLowerCase()),
      moderator: z.boolean().default(false),
    }),
    confirm: ({ room, email, moderator }) =>
      `Add ${email} to the Webex room "${room}"${moderator ? " as a moderator" : ""}.`,
    resource: ({ room, email }) => ({ room: roomName(room), person: email }),
    run: async ({ room, email, moderator }, ctx) => {
      const target = await resolveRoom(webex, ctx, room);
      const added = await webex.call(ctx, (api) =>
        api.addMembership({ roomId: target.id, personEmail: email, isModerator: moderator }),
      );
      return `Added ${formatMember(added)} to ${target.title}.`;
    },
  });

/** A room by id as given, or the one room the agent is in whose title matches (exactly, else containing). */
async function resolveRoom(webex: WebexClient, ctx: ToolCallContext, given: string): Promise<WebexRoom> {
  const wanted = given.trim();
  if (isWebexId(wanted)) return webex.call(ctx, (api) => api.getRoom(wanted));
  const { items = [] } = await webex.call(ctx, (api) => api.listRooms({ max: 1000 }));
  const lower = wanted.toLowerCase();
  const exact = items.find((one) => one.title.toLowerCase() === lower);
  if (exact) return exact;
  const partial = items.filter((one) => one.title.toLowerCase().includes(lower));
  if (partial.length === 1 && partial[0]) return partial[0];
  throw new Error(
    partial.length === 0
      ? `The agent is in no Webex room titled "${given}"; list_rooms shows the ones it is in (add the bot to a room to use it).`
      : `"${given}" matches several rooms: ${partial.map((one) => one.title).join(", ")}. Name one exactly.`,
  );
}
