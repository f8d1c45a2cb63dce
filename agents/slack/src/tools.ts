import type { WebClient } from "@slack/web-api";
import { type AgentTool, defineTool, type ToolCallContext } from "@switchboard/agent-runtime";
import { z } from "zod";
import type { SlackConnection } from "./client.js";

interface SlackChannel {
  id?: string;
  name?: string;
  is_private?: boolean;
  is_archived?: boolean;
  is_member?: boolean;
  purpose?: { value?: string };
}

// At most this many channels are looked through: enough for a large workspace, bounded for a turn.
const MAX_CHANNEL_PAGES = 5;

/**
 * A channel as a policy names it: an id as Slack writes ids (C… or G…, upper case), else the name
 * without `#` in lower case (Slack's channel names are lower case). A call that names the channel by
 * id is not in a policy's channel named by name, and the other way round.
 */
export function channelName(given: string): string {
  const channel = given.trim();
  return /^[CGD][A-Z0-9]{6,}$/.test(channel) ? channel : channel.replace(/^#/, "").toLowerCase();
}

export function slackTools(slack: SlackConnection): AgentTool[] {
  return [listChannels(slack), readChannel(slack), postMessage(slack)];
}

const listChannels = (slack: SlackConnection) =>
  defineTool({
    name: "list_channels",
    description: "Find Slack channels (public and private ones the bot can see) whose name contains a text",
    schema: z.object({
      query: z.string().optional().describe("Part of the channel name, e.g. incident"),
      include_archived: z.boolean().default(false),
    }),
    run: async ({ query, include_archived }, ctx) => {
      const wanted = query?.replace(/^#/, "").toLowerCase();
      const channels = (await slack.call(ctx, allChannels))
        .filter((one) => include_archived || !one.is_archived)
        .filter((one) => !wanted || one.name?.toLowerCase().includes(wanted));
      if (channels.length === 0) return query ? `No channels match "${query}".` : "No channels are visible.";
      return channels.map(formatChannel).join("\n");
    },
  });

const readChannel = (slack: SlackConnection) =>
  defineTool({
    name: "read_channel",
    description: "Read the recent messages of a Slack channel, oldest first, with authors' names",
    schema: z.object({
      channel: z.string().min(1).describe("The channel's name (#incidents or incidents) or id"),
      limit: z.number().int().min(1).max(200).default(20),
    }),
    resource: ({ channel }) => ({ channel: channelName(channel) }),
    run: async ({ channel, limit }, ctx) => {
      const target = await resolveChannel(slack, ctx, channel);
      const { messages = [], has_more } = await slack.call(ctx, (client) =>
        client.conversations.history({ channel: target.id as string, limit }),
      );
      if (messages.length === 0) return `#${target.name} has no messages.`;
      // Name each author once: messages carry user ids only.
      const ids = [...new Set(messages.map((one) => one.user).filter((id): id is string => Boolean(id)))];
      const names = new Map<string, string>();
      for (const id of ids) {
        const { user } = await slack.call(ctx, (client) => client.users.info({ user: id }));
        names.set(id, user?.real_name || user?.name || id);
      }
      // Oldest first, as a conversation reads.
      const lines = [...messages]
        .reverse()
        .map(
          (one) =>
            `[${when(one.ts)}] ${names.get(one.user ?? "") ?? one.user ?? one.bot_id ?? "?"}: ${one.text ?? ""}`,
        );
      const more = has_more ? `\n(older messages exist; ask for more than ${limit})` : "";
      return `#${target.name}, last ${messages.length} messages:\n${lines.join("\n")}${more}`;
    },
  });

const postMessage = (slack: SlackConnection) =>
  defineTool({
    name: "post_message",
    description: "Post a message to a Slack channel, or reply in a thread",
    schema: z.object({
      channel: z.string().min(1).describe("The channel's name or id"),
      text: z.string().min(1).describe("The message, in Slack mrkdwn"),
      thread_ts: z.string().optional().describe("Reply in this message's thread (its ts)"),
    }),
    confirm: ({ channel, text, thread_ts }) =>
      `Post to ${channel.startsWith("#") || /^[CG][A-Z0-9]+$/.test(channel) ? channel : `#${channel}`}${thread_ts ? ` (in thread ${thread_ts})` : ""}: "${text}".`,
    resource: ({ channel }) => ({ channel: channelName(channel) }),
    run: async ({ channel, text, thread_ts }, ctx) => {
      const target = await resolveChannel(slack, ctx, channel);
      const posted = await slack.call(ctx, (client) =>
        client.chat.postMessage({
          channel: target.id as string,
          text,
          ...(thread_ts ? { thread_ts } : {}),
        }),
      );
      return `Posted to #${target.name} (message ${posted.ts}): ${text}`;
    },
  });

/** A channel id as given (C…, G…), else the channel of that name, with or without `#`. */
async function resolveChannel(
  slack: SlackConnection,
  ctx: ToolCallContext,
  channel: string,
): Promise<SlackChannel> {
  const name = channel.replace(/^#/, "").toLowerCase();
  const channels = await slack.call(ctx, allChannels);
  const found = channels.find((one) => one.id === channel || one.name?.toLowerCase() === name);
  if (!found?.id)
    throw new Error(`No Slack channel named "${channel}" is visible to the bot; list_channels shows them.`);
  return found;
}

/** Every channel the token can see (public and private), following Slack's cursor a few pages. */
async function allChannels(client: WebClient): Promise<SlackChannel[]> {
  const channels: SlackChannel[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_CHANNEL_PAGES; page++) {
    const result = await client.conversations.list({
      types: "public_channel,private_channel",
      limit: 1000,
      ...(cursor ? { cursor } : {}),
    });
    channels.push(...((result.channels ?? []) as SlackChannel[]));
    cursor = result.response_metadata?.next_cursor || undefined;
    if (!cursor) break;
  }
  return channels;
}

function formatChannel(channel: SlackChannel): string {
  const flags = [
    channel.is_private ? "private" : "public",
    ...(channel.is_archived ? ["archived"] : []),
    ...(channel.is_member ? [] : ["bot not a member"]),
  ];
  const purpose = channel.purpose?.value ? ` — ${channel.purpose.value}` : "";
  return `#${channel.name} (${channel.id}, ${flags.join(", ")})${purpose}`;
}

/** A Slack ts (`1700000000.000100`) as an ISO minute. */
const when = (ts: string | undefined) =>
  ts ? new Date(Number(ts.split(".")[0]) * 1000).toISOString().slice(0, 16).replace("T", " ") : "?";
