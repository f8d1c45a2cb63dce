import { type Handler, isRecord, type RouteContext, VendorHttpError } from "../vendor-server.js";
import type { Channel, SlackState } from "./state.js";

/** Slack answers HTTP 200 with `{ ok: false, error }` for nearly every failure. */
const fail = (error: string) => new VendorHttpError(200, error);

/** Slack's Web API takes arguments as form fields (what its clients send) or, for GET, query parameters. */
function args(ctx: RouteContext): Record<string, string> {
  const fromBody = isRecord(ctx.body)
    ? Object.fromEntries(Object.entries(ctx.body).map(([key, value]) => [key, String(value)]))
    : {};
  return { ...Object.fromEntries(ctx.query), ...fromBody };
}

function findChannel(state: SlackState, id: string | undefined): Channel {
  if (!id) throw fail("channel_not_found");
  const found = state.channels.find((one) => one.id === id);
  if (!found) throw fail("channel_not_found");
  return found;
}

const ok = (body: Record<string, unknown>) => ({ status: 200, body: { ok: true, ...body } });

export function slackRoutes(state: SlackState): Array<["GET" | "POST", string, Handler]> {
  const conversationsList: Handler = (ctx) => {
    const { exclude_archived, limit, cursor } = args(ctx);
    const size = Math.min(Number(limit ?? 100) || 100, 1000);
    const start = Number(cursor ?? 0) || 0;
    const channels = state.channels.filter((one) => exclude_archived !== "true" || !one.is_archived);
    const page = channels.slice(start, start + size);
    const next = start + size < channels.length ? String(start + size) : "";
    return ok({ channels: page, response_metadata: { next_cursor: next } });
  };

  const conversationsHistory: Handler = (ctx) => {
    const { channel, limit } = args(ctx);
    const found = findChannel(state, channel);
    // A bot reads only the channels it has been invited to.
    if (!found.is_member) throw fail("not_in_channel");
    const size = Math.min(Number(limit ?? 100) || 100, 999);
    const messages = state.history.get(found.id) ?? [];
    return ok({ messages: messages.slice(0, size), has_more: messages.length > size });
  };

  const usersInfo: Handler = (ctx) => {
    const user = state.users.find((one) => one.id === args(ctx).user);
    if (!user) throw fail("user_not_found");
    return ok({ user });
  };

  const postMessage: Handler = (ctx) => {
    const { channel, text, thread_ts } = args(ctx);
    const found = findChannel(state, channel);
    if (found.is_archived) throw fail("is_archived");
    if (!found.is_member) throw fail("not_in_channel");
    if (!text?.trim()) throw fail("no_text");
    const ts = `${Math.floor(Date.now() / 1000)}.${String(state.posted.length + 1).padStart(6, "0")}`;
    const message = {
      type: "message" as const,
      user: state.botUserId,
      text,
      ts,
      ...(thread_ts ? { thread_ts } : {}),
    };
    state.history.set(found.id, [message, ...(state.history.get(found.id) ?? [])]);
    state.posted.push({ channel: found.id, text, ts, ...(thread_ts ? { thread_ts } : {}) });
    return ok({ channel: found.id, ts, message });
  };

  // Slack's clients POST every method; GET works too for the read methods.
  return [
    ["POST", "/api/conversations.list", conversationsList],
    ["GET", "/api/conversations.list", conversationsList],
    ["POST", "/api/conversations.history", conversationsHistory],
    ["GET", "/api/conversations.history", conversationsHistory],
    ["POST", "/api/users.info", usersInfo],
    ["POST", "/api/chat.postMessage", postMessage],
  ];
}
