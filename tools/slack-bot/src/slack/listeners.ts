import type { App } from "@slack/bolt";
import type { Logger } from "@switchboard/common";
import type { ChatPlace } from "../relay/chat-platform.js";
import type { Relay } from "../relay/relay.js";
import type { RelayMetrics } from "../telemetry/metrics.js";
import { APPROVE_ACTION, DECLINE_ACTION } from "./blocks.js";

/** The fields of a Slack message event the relay reads; anything without them is not a user's message. */
interface MessageFields {
  user?: unknown;
  text?: unknown;
  channel?: unknown;
  ts?: unknown;
  thread_ts?: unknown;
  channel_type?: unknown;
  subtype?: unknown;
  bot_id?: unknown;
}

/**
 * Wires Bolt's events to the relay (Bolt has verified the request, acked it and dropped the bot's own
 * messages): a mention in a channel and a direct message start or continue a conversation, a reply in
 * a thread continues one, an Approve or Decline press answers a confirmation. A message is keyed by
 * workspace, channel and timestamp, so its `app_mention` and `message` events, Slack's retries and
 * other replicas all count as one.
 */
export function registerSlackListeners(app: App, relay: Relay, metrics: RelayMetrics, logger: Logger): void {
  const malformed = (kind: string, what: string) => {
    metrics.events.inc({ platform: "slack", kind, outcome: "malformed" });
    logger.warn({ kind }, `ignored a Slack ${kind} without ${what}`);
  };
  const onMessage = async (
    event: MessageFields,
    teamId: string | undefined,
    botUserId: string | undefined,
    mention: boolean,
  ) => {
    if (event.subtype !== undefined || event.bot_id !== undefined) return;
    const { user, text, channel, ts } = event;
    if (
      !teamId ||
      typeof user !== "string" ||
      typeof channel !== "string" ||
      typeof ts !== "string" ||
      typeof text !== "string"
    ) {
      return malformed("message", "a team, user, channel, timestamp and text");
    }
    const direct = event.channel_type === "im";
    const threadTs = typeof event.thread_ts === "string" ? event.thread_ts : undefined;
    // A channel message outside a thread that does not mention the bot is not for it.
    if (!mention && !direct && !threadTs) return;
    const place: ChatPlace = { workspace: teamId, channel, thread: threadTs ?? ts };
    const clean = botUserId ? text.replaceAll(`<@${botUserId}>`, "").trim() : text.trim();
    if (!clean) return;
    const addressed = mention || direct || (botUserId !== undefined && text.includes(`<@${botUserId}>`));
    await relay.onMessage({ place, key: `slack:${teamId}:${channel}:${ts}`, user, text: clean }, addressed);
  };

  app.event("app_mention", async ({ event, context, body }) => {
    await onMessage(
      event as MessageFields,
      context.teamId ?? (body as { team_id?: string }).team_id,
      context.botUserId,
      true,
    );
  });
  app.message(async ({ message, context, body }) => {
    await onMessage(
      message as MessageFields,
      context.teamId ?? (body as { team_id?: string }).team_id,
      context.botUserId,
      false,
    );
  });
  app.action(
    { type: "block_actions", action_id: new RegExp(`^(${APPROVE_ACTION}|${DECLINE_ACTION})$`) },
    async ({ ack, body, action }) => {
      await ack();
      const value = "value" in action ? action.value : undefined;
      const channel = body.channel?.id ?? body.container?.channel_id;
      const thread = body.container?.thread_ts ?? body.message?.thread_ts ?? body.container?.message_ts;
      const teamId = body.team?.id ?? body.user.team_id;
      if (typeof value !== "string" || !channel || !thread || !teamId) {
        return malformed("decision", "a confirmation, channel and thread");
      }
      await relay.onDecision({
        place: { workspace: teamId, channel, thread },
        user: body.user.id,
        confirmationId: value,
        approved: action.action_id === APPROVE_ACTION,
      });
    },
  );
  app.error(async (error) => {
    logger.error({ err: error.original ?? error, code: error.code }, "a Slack listener failed");
  });
}
