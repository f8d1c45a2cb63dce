import type { IncomingMessage } from "node:http";
import type { Workspace } from "./workspace.js";

/** One Web API call as the fake saw it, for tests that count calls (chat.update) or check their timing. */
export interface ApiCall {
  method: string;
  args: Record<string, unknown>;
  at: number;
}

export interface WebApiOptions {
  workspace: Workspace;
  botToken: string;
  appToken: string;
  /** The WebSocket URL apps.connections.open hands out. */
  socketUrl: () => string;
  calls: ApiCall[];
}

type Answer = Record<string, unknown>;

/**
 * Slack's Web API methods a bot calls, with Slack's shapes and errors: every answer is HTTP 200
 * with `ok`, a failure names its error code (`invalid_auth`, `channel_not_found`, …).
 */
export async function answerWebApi(
  options: WebApiOptions,
  method: string,
  request: IncomingMessage,
): Promise<Answer> {
  const args = await readArgs(request);
  options.calls.push({ method, args, at: Date.now() });
  const token = bearer(request) ?? (typeof args.token === "string" ? args.token : undefined);
  if (!token) return { ok: false, error: "not_authed" };
  const { workspace } = options;
  if (method === "apps.connections.open") {
    if (token !== options.appToken) return { ok: false, error: "invalid_auth" };
    return { ok: true, url: options.socketUrl() };
  }
  if (token !== options.botToken) return { ok: false, error: "invalid_auth" };
  switch (method) {
    case "auth.test":
      return {
        ok: true,
        url: "https://switchboard-test.slack.com/",
        team: "Switchboard Test",
        user: "switchboard",
        team_id: workspace.teamId,
        user_id: workspace.botUserId,
        bot_id: "B0BOT",
      };
    case "chat.postMessage": {
      const channel = text(args.channel);
      if (!channel) return { ok: false, error: "channel_not_found" };
      if (!text(args.text) && !args.blocks) return { ok: false, error: "no_text" };
      const threadTs = text(args.thread_ts);
      const message = workspace.add({
        channel,
        ts: workspace.nextTs(),
        ...(threadTs ? { threadTs } : {}),
        user: workspace.botUserId,
        text: text(args.text) ?? "",
        ...(Array.isArray(args.blocks) ? { blocks: args.blocks } : {}),
      });
      return { ok: true, channel, ts: message.ts, message: { ts: message.ts, text: message.text } };
    }
    case "chat.update": {
      const message = workspace.find(text(args.channel) ?? "", text(args.ts) ?? "");
      if (!message) return { ok: false, error: "message_not_found" };
      if (message.user !== workspace.botUserId) return { ok: false, error: "cant_update_message" };
      message.text = text(args.text) ?? message.text;
      if (Array.isArray(args.blocks)) message.blocks = args.blocks;
      message.versions.push({
        text: message.text,
        ...(message.blocks ? { blocks: message.blocks } : {}),
        at: Date.now(),
      });
      return { ok: true, channel: message.channel, ts: message.ts, text: message.text };
    }
    case "chat.postEphemeral": {
      const channel = text(args.channel);
      const user = text(args.user);
      if (!channel || !user) return { ok: false, error: "invalid_arguments" };
      const threadTs = text(args.thread_ts);
      const ts = workspace.nextTs();
      workspace.ephemerals.push({
        channel,
        ts,
        user,
        text: text(args.text) ?? "",
        ...(threadTs ? { threadTs } : {}),
        ...(Array.isArray(args.blocks) ? { blocks: args.blocks } : {}),
        at: Date.now(),
      });
      return { ok: true, message_ts: ts };
    }
    case "users.info": {
      const user = workspace.users.get(text(args.user) ?? "");
      if (!user) return { ok: false, error: "user_not_found" };
      return {
        ok: true,
        user: {
          id: user.id,
          team_id: workspace.teamId,
          name: user.name,
          real_name: user.name,
          profile: {
            real_name: user.name,
            display_name: user.name,
            ...(user.email ? { email: user.email } : {}),
          },
        },
      };
    }
    case "conversations.replies": {
      const messages = workspace.thread(text(args.channel) ?? "", text(args.ts) ?? "");
      if (messages.length === 0) return { ok: false, error: "thread_not_found" };
      return {
        ok: true,
        has_more: false,
        messages: messages.map((message) => ({
          type: "message",
          user: message.user,
          text: message.text,
          ts: message.ts,
          ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
        })),
      };
    }
    default:
      return { ok: false, error: "unknown_method" };
  }
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function bearer(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith("Bearer ") ? header.slice("Bearer ".length) : undefined;
}

/**
 * A call's arguments: a form (what @slack/web-api sends; objects and arrays in it are JSON text) or
 * a JSON body.
 */
async function readArgs(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString("utf8");
  if (!body) return {};
  if (String(request.headers["content-type"]).includes("application/json")) {
    return JSON.parse(body) as Record<string, unknown>;
  }
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    args[key] = /^[[{]/.test(value) ? JSON.parse(value) : value;
  }
  return args;
}
