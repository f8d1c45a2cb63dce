import type { ConfirmationView } from "../relay/chat-platform.js";

export const APPROVE_ACTION = "switchboard_approve";
export const DECLINE_ACTION = "switchboard_decline";
/** A section's text may hold 3000 characters. */
const SECTION_CHARS = 2_900;

/**
 * A change to confirm as Block Kit: what it is, and Approve / Decline buttons carrying the
 * confirmation's id; once decided, who decided instead of the buttons (so nobody presses twice).
 */
export function confirmationBlocks(view: ConfirmationView, mention: (user: string) => string): unknown[] {
  const asker = view.agent ? `The *${view.agent}* agent asks to confirm` : "Please confirm";
  const question =
    view.question.length > SECTION_CHARS ? `${view.question.slice(0, SECTION_CHARS)}…` : view.question;
  const blocks: unknown[] = [
    { type: "section", block_id: "question", text: { type: "mrkdwn", text: `${asker}:\n${question}` } },
  ];
  if (view.decided) {
    const { approved, by, refused } = view.decided;
    const verdict = approved ? ":white_check_mark: Approved" : ":x: Declined";
    const text = refused
      ? `:no_entry: ${mention(by)} may not decide this change: the policy does not allow it`
      : `${verdict} by ${mention(by)}`;
    blocks.push({ type: "context", block_id: "decision", elements: [{ type: "mrkdwn", text }] });
  } else {
    blocks.push({
      type: "actions",
      block_id: "decision",
      elements: [
        {
          type: "button",
          action_id: APPROVE_ACTION,
          style: "primary",
          text: { type: "plain_text", text: "Approve" },
          value: view.id,
        },
        {
          type: "button",
          action_id: DECLINE_ACTION,
          style: "danger",
          text: { type: "plain_text", text: "Decline" },
          value: view.id,
        },
      ],
    });
  }
  return blocks;
}
