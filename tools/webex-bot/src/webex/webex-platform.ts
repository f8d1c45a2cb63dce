import type { ChatPlace, ChatPlatform, OutgoingMessage } from "@switchboard/slack-bot/relay";
import type { Collection } from "mongodb";
import type { WebexApi } from "./api.js";
import { confirmationCard } from "./card.js";

/** Where a confirmation's card was posted: Webex edits text only, so the card is deleted once decided. */
export interface CardRecord {
  _id: string;
  messageId: string;
}

/**
 * Webex as the relay's chat platform, over its REST API. Messages are Webex markdown, replies go in
 * the space's thread (`parentId`), a whisper is a direct message to that person (Webex has no
 * message only one member of a space sees). Webex edits a message's text but not its cards, so a
 * change to confirm is the question in the live message and an Adaptive Card under it in the
 * thread; once decided, the message says who decided and the card is deleted.
 */
export class WebexPlatform implements ChatPlatform {
  readonly name = "webex";
  /** Webex takes 7439 bytes of text: room for three bytes a character. */
  readonly maxMessageChars = 2_400;
  /** Webex edits a message at most 10 times: 8 for progress, then the end and a decision. */
  readonly maxLiveEdits = 8;

  constructor(
    private readonly api: WebexApi,
    private readonly cards: Collection<CardRecord>,
  ) {}

  async post(place: ChatPlace, message: OutgoingMessage): Promise<string> {
    const posted = await this.api.post({ ...this.where(place), markdown: message.text });
    if (message.confirmation && !message.confirmation.decided) await this.postCard(place, message);
    return posted.id;
  }

  async update(place: ChatPlace, messageId: string, message: OutgoingMessage): Promise<void> {
    const decided = message.confirmation?.decided;
    const verdict = decided
      ? decided.refused
        ? `\n\n⛔ ${this.mention(decided.by)} may not decide this change: the policy does not allow it`
        : `\n\n${decided.approved ? "✅ Approved" : "❌ Declined"} by ${this.mention(decided.by)}`
      : "";
    await this.api.edit(messageId, place.channel, `${message.text}${verdict}`);
    if (!message.confirmation) return;
    if (decided) {
      const card = await this.cards.findOneAndDelete({ _id: message.confirmation.id });
      if (card) await this.api.remove(card.messageId);
    } else {
      await this.postCard(place, message);
    }
  }

  async whisper(_place: ChatPlace, user: string, text: string): Promise<void> {
    await this.api.post({ toPersonId: user, markdown: text });
  }

  /** Webex markdown is markdown; what would mention the whole space (`<@all>`) is written inert. */
  format(markdown: string): string {
    return markdown.replace(/<@/g, "&lt;@");
  }

  mention(user: string): string {
    return `<@personId:${user}>`;
  }

  private async postCard(place: ChatPlace, message: OutgoingMessage): Promise<void> {
    const view = message.confirmation;
    if (!view) return;
    const card = await this.api.post({
      ...this.where(place),
      markdown: "Approve or Decline this change (your Webex client shows the buttons).",
      attachments: [confirmationCard(view)],
    });
    await this.cards.insertOne({ _id: view.id, messageId: card.id });
  }

  private where(place: ChatPlace): { roomId: string; parentId?: string } {
    return { roomId: place.channel, ...(place.thread ? { parentId: place.thread } : {}) };
  }
}
