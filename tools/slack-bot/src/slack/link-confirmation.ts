import type { App, webApi } from "@slack/bolt";
import type { Logger } from "@switchboard/common";
import type { LinkedIdentities, PendingLink } from "../identity/linked-identities.js";
import type { RelayMetrics } from "../telemetry/metrics.js";

export const CONFIRM_LINK_ACTION = "switchboard_link_confirm";
export const CANCEL_LINK_ACTION = "switchboard_link_cancel";

/** The question after a sign-in, with the two buttons carrying the pending link's id. */
export function linkConfirmationBlocks(pending: PendingLink): unknown[] {
  const who = pending.user.name ? `${pending.user.name} (${pending.user.email})` : pending.user.email;
  return [
    {
      type: "section",
      block_id: "link",
      text: {
        type: "mrkdwn",
        text: `Someone just signed in as *${who}* with the link I sent you. Is this you? Switchboard will act as this person for your Slack account only once you say so.`,
      },
    },
    {
      type: "actions",
      block_id: "link_decision",
      elements: [
        {
          type: "button",
          action_id: CONFIRM_LINK_ACTION,
          style: "primary",
          text: { type: "plain_text", text: `Yes, this is me (${pending.user.email})` },
          value: pending.id,
        },
        {
          type: "button",
          action_id: CANCEL_LINK_ACTION,
          text: { type: "plain_text", text: "No, this is not me" },
          value: pending.id,
        },
      ],
    },
  ];
}

/** Asks the Slack user, in their thread and visible to them only, to confirm the sign-in. */
export async function askToConfirmLink(client: webApi.WebClient, pending: PendingLink): Promise<void> {
  await client.chat.postEphemeral({
    channel: pending.place.channel,
    user: pending.chatUser,
    thread_ts: pending.place.thread,
    text: `Is this you: ${pending.user.email}? Confirm to link your Slack account.`,
    blocks: linkConfirmationBlocks(pending) as never[],
  });
}

/**
 * A press of "Yes, this is me" or "No": Bolt has verified the request comes from Slack, and Slack
 * names who pressed. The pending link is theirs only if the link was made for that Slack user
 * (LinkedIdentities.confirmLink checks it); anyone else's press finds nothing and changes nothing.
 */
export function registerLinkConfirmation(
  app: App,
  identities: LinkedIdentities,
  metrics: RelayMetrics,
  logger: Logger,
): void {
  app.action(
    {
      type: "block_actions",
      action_id: new RegExp(`^(${CONFIRM_LINK_ACTION}|${CANCEL_LINK_ACTION})$`),
    },
    async ({ ack, body, action, client }) => {
      await ack();
      const value = "value" in action ? action.value : undefined;
      const channel = body.channel?.id ?? body.container?.channel_id;
      // An ephemeral message is no thread root: answer in its thread when it has one, else beside it.
      const thread = body.container?.thread_ts ?? body.message?.thread_ts;
      const teamId = body.team?.id ?? body.user.team_id;
      const user = body.user.id;
      const count = (outcome: string) => metrics.events.inc({ platform: "slack", kind: "link", outcome });
      if (typeof value !== "string" || !channel || !teamId) {
        count("malformed");
        return logger.warn({ kind: "link" }, "ignored a Slack link press without a link, channel and team");
      }
      const say = (text: string) =>
        client.chat
          .postEphemeral({ channel, user, text, ...(thread ? { thread_ts: thread } : {}) })
          .catch((error: unknown) =>
            logger.warn({ reason: (error as Error).message }, "could not answer a link press"),
          );
      if (action.action_id === CANCEL_LINK_ACTION) {
        const dropped = await identities.cancelLink(teamId, user, value);
        count(dropped ? "canceled" : "refused");
        await say(
          dropped
            ? "Nothing was linked. If you did not open the link yourself, someone else had it: mention me again for a new one when you want to link."
            : "There is no sign-in of yours waiting here (it was answered, expired or is not yours).",
        );
        return;
      }
      const linked = await identities.confirmLink(teamId, user, value);
      if (!linked) {
        count("refused");
        logger.warn(
          { workspace: teamId, chatUser: user },
          "a link confirmation matched no pending link of this user",
        );
        await say(
          "There is no sign-in of yours waiting here (it was answered, expired or is not yours): nothing was linked. Mention me for a new link.",
        );
        return;
      }
      count("linked");
      await say(
        `You are linked: Switchboard now acts as ${linked.name ?? linked.email ?? linked.subject} for you here. Ask again.`,
      );
    },
  );
}
