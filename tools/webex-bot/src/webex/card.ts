import type { ConfirmationView } from "@switchboard/slack-bot/relay";

export const ADAPTIVE_CARD = "application/vnd.microsoft.card.adaptive";
/** What the card's buttons submit: the action and the confirmation they decide. */
export const APPROVE = "switchboard_approve";
export const DECLINE = "switchboard_decline";

/**
 * A change to confirm as an Adaptive Card (Webex renders version 1.3): what it is, and Approve /
 * Decline buttons (`Action.Submit`) carrying the confirmation's id. Webex creates an attachment
 * action naming who pressed; the bot decides whether that person may.
 */
export function confirmationCard(view: ConfirmationView): { contentType: string; content: unknown } {
  const asker = view.agent ? `The **${view.agent}** agent asks to confirm:` : "Please confirm:";
  return {
    contentType: ADAPTIVE_CARD,
    content: {
      $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
      type: "AdaptiveCard",
      version: "1.3",
      body: [
        { type: "TextBlock", text: asker, wrap: true },
        { type: "TextBlock", text: view.question, wrap: true },
      ],
      actions: [
        {
          type: "Action.Submit",
          title: "Approve",
          style: "positive",
          data: { action: APPROVE, confirmation: view.id },
        },
        {
          type: "Action.Submit",
          title: "Decline",
          style: "destructive",
          data: { action: DECLINE, confirmation: view.id },
        },
      ],
    },
  };
}
