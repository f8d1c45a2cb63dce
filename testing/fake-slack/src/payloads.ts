import { randomBytes } from "node:crypto";
import type { Ephemeral, SlackMessage, Workspace } from "./workspace.js";

/** An event as Slack describes it inside an event callback (`app_mention`, `message`, …). */
export type SlackEvent = Record<string, unknown> & { type: string };

/** The Events API's outer envelope (what the HTTP endpoint receives, and Socket Mode's payload). */
export function eventCallback(workspace: Workspace, event: SlackEvent, eventId = newEventId()) {
  return {
    token: "verification-token-unused",
    team_id: workspace.teamId,
    api_app_id: "A0SWITCHBOARD",
    event: { event_ts: event.ts, ...event },
    type: "event_callback",
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      { enterprise_id: null, team_id: workspace.teamId, user_id: workspace.botUserId, is_bot: true },
    ],
    is_ext_shared_channel: false,
  };
}

/** A press of a Block Kit button on one of the bot's messages, as interactivity sends it. */
export function blockActions(workspace: Workspace, user: string, message: SlackMessage, actionId: string) {
  return {
    ...pressOf(workspace, user, message, false, findAction(message, actionId)),
    message: {
      type: "message",
      user: message.user,
      ts: message.ts,
      text: message.text,
      blocks: message.blocks ?? [],
      ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
    },
  };
}

/**
 * A press of a button on an ephemeral message (seen by one user only): Slack names the message by
 * its `message_ts` in the container and sends no `message`. `user` is whoever pressed: Slack shows
 * the message to its user alone, a test may still make anyone press.
 */
export function ephemeralBlockActions(
  workspace: Workspace,
  user: string,
  ephemeral: Ephemeral,
  actionId: string,
) {
  const action = findAction({ ts: ephemeral.ts, text: ephemeral.text, blocks: ephemeral.blocks }, actionId);
  return pressOf(workspace, user, ephemeral, true, action);
}

/** What every button press carries: who pressed, where the message is, and the action. */
function pressOf(
  workspace: Workspace,
  user: string,
  on: { ts: string; channel: string; threadTs?: string },
  ephemeral: boolean,
  action: ReturnType<typeof findAction>,
) {
  return {
    type: "block_actions",
    team: { id: workspace.teamId, domain: "switchboard-test" },
    user: { id: user, username: workspace.users.get(user)?.name ?? user, team_id: workspace.teamId },
    api_app_id: "A0SWITCHBOARD",
    token: "verification-token-unused",
    trigger_id: randomBytes(8).toString("hex"),
    container: {
      type: "message",
      message_ts: on.ts,
      channel_id: on.channel,
      is_ephemeral: ephemeral,
      ...(on.threadTs ? { thread_ts: on.threadTs } : {}),
    },
    channel: { id: on.channel, name: on.channel },
    actions: [{ ...action, action_ts: String(Date.now() / 1000) }],
  };
}

export function newEventId(): string {
  return `Ev${randomBytes(6).toString("hex").toUpperCase()}`;
}

function findAction(
  message: Pick<SlackMessage, "ts" | "text" | "blocks">,
  actionId: string,
): Record<string, unknown> {
  for (const block of (message.blocks ?? []) as Array<Record<string, unknown>>) {
    for (const element of (block.elements ?? []) as Array<Record<string, unknown>>) {
      if (element.action_id === actionId) {
        return {
          type: element.type,
          action_id: actionId,
          block_id: block.block_id,
          value: element.value,
          text: element.text,
        };
      }
    }
  }
  throw new Error(`The message ${message.ts} has no button ${actionId}: ${message.text}`);
}
