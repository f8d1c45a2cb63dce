import type { Logger } from "@switchboard/common";
import type { LinkedIdentities, PendingLink } from "@switchboard/slack-bot/identity";
import type { RelayMetrics } from "@switchboard/slack-bot/relay";
import type { WebexApi, WebexAttachmentAction } from "./api.js";
import { ADAPTIVE_CARD } from "./card.js";

/** What the link card's buttons submit: the answer and the pending link they answer. */
export const CONFIRM_LINK = "switchboard_link_confirm";
export const CANCEL_LINK = "switchboard_link_cancel";

/** The question after a sign-in, as an Adaptive Card with the two buttons carrying the pending link's id. */
export function linkConfirmationCard(pending: PendingLink): { contentType: string; content: unknown } {
  const who = pending.user.name ? `${pending.user.name} (${pending.user.email})` : pending.user.email;
  return {
    contentType: ADAPTIVE_CARD,
    content: {
      $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
      type: "AdaptiveCard",
      version: "1.3",
      body: [
        {
          type: "TextBlock",
          text: `Someone just signed in as **${who}** with the link I sent you. Is this you? Switchboard will act as this person for your Webex account only once you say so.`,
          wrap: true,
        },
      ],
      actions: [
        {
          type: "Action.Submit",
          title: `Yes, this is me (${pending.user.email})`,
          style: "positive",
          data: { action: CONFIRM_LINK, link: pending.id },
        },
        {
          type: "Action.Submit",
          title: "No, this is not me",
          data: { action: CANCEL_LINK, link: pending.id },
        },
      ],
    },
  };
}

/**
 * Asks the Webex user, in their direct space with the bot (Webex shows no message to one member of
 * a group space only), to confirm the sign-in.
 */
export async function askToConfirmLink(api: WebexApi, pending: PendingLink): Promise<void> {
  await api.post({
    toPersonId: pending.chatUser,
    markdown: `Is this you: ${pending.user.email}? Confirm to link your Webex account (your Webex client shows the buttons).`,
    attachments: [linkConfirmationCard(pending)],
  });
}

export interface LinkPressDeps {
  api: WebexApi;
  identities: LinkedIdentities;
  /** The bot's organisation: the workspace its users are linked under. */
  orgId: string;
  metrics: RelayMetrics;
  logger: Logger;
}

/**
 * A press of "Yes, this is me" or "No" on a link card the bot posted (webhooks.ts checked that).
 * Webex names who pressed; the pending link is theirs only if it was made for that Webex user
 * (LinkedIdentities.confirmLink checks it): anyone else's press, a late or second one, finds nothing
 * and changes nothing. The answer goes to the presser directly.
 */
export async function onLinkPress(
  deps: LinkPressDeps,
  action: WebexAttachmentAction,
  pressed: typeof CONFIRM_LINK | typeof CANCEL_LINK,
  linkId: string,
): Promise<void> {
  const user = action.personId;
  const count = (outcome: string) => deps.metrics.events.inc({ platform: "webex", kind: "link", outcome });
  const say = (markdown: string) =>
    deps.api
      .post({ toPersonId: user, markdown })
      .catch((error: unknown) =>
        deps.logger.warn({ reason: (error as Error).message }, "could not answer a link press"),
      );
  if (pressed === CANCEL_LINK) {
    const dropped = await deps.identities.cancelLink(deps.orgId, user, linkId);
    count(dropped ? "canceled" : "refused");
    if (dropped) await deps.api.remove(action.messageId).catch(() => {});
    await say(
      dropped
        ? "Nothing was linked. If you did not open the link yourself, someone else had it: mention me again for a new one when you want to link."
        : "There is no sign-in of yours waiting here (it was answered, expired or is not yours).",
    );
    return;
  }
  const linked = await deps.identities.confirmLink(deps.orgId, user, linkId);
  if (!linked) {
    count("refused");
    deps.logger.warn({ chatUser: user }, "a link confirmation matched no pending link of this user");
    await say(
      "There is no sign-in of yours waiting here (it was answered, expired or is not yours): nothing was linked. Mention me for a new link.",
    );
    return;
  }
  count("linked");
  // The card has done its work: it asks nobody anything any more.
  await deps.api.remove(action.messageId).catch(() => {});
  await say(
    `You are linked: Switchboard now acts as ${linked.name ?? linked.email ?? linked.subject} for you here. Ask again.`,
  );
}
