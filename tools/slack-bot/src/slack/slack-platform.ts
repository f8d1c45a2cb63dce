import type { webApi } from "@slack/bolt";
import type { ChatPlace, ChatPlatform, OutgoingMessage } from "../relay/chat-platform.js";
import { confirmationBlocks } from "./blocks.js";
import { toMrkdwn } from "./mrkdwn.js";

/**
 * Slack as the relay's chat platform, through Bolt's Web API client (which retries rate-limited calls
 * after Slack's Retry-After). Messages are mrkdwn, replies go in the thread, whispers are ephemeral.
 */
export class SlackPlatform implements ChatPlatform {
  readonly name = "slack";
  /** Slack shows up to 4000 characters of a message's text in full (it truncates past 40000). */
  readonly maxMessageChars = 3_900;

  constructor(private readonly client: webApi.WebClient) {}

  async post(place: ChatPlace, message: OutgoingMessage): Promise<string> {
    const answer = await this.client.chat.postMessage({
      channel: place.channel,
      thread_ts: place.thread,
      text: message.text,
      ...this.blocks(message),
    });
    if (!answer.ts) throw new Error("Slack accepted the message without a timestamp.");
    return answer.ts;
  }

  async update(place: ChatPlace, messageId: string, message: OutgoingMessage): Promise<void> {
    // No blocks clears the buttons a message had.
    await this.client.chat.update({
      channel: place.channel,
      ts: messageId,
      text: message.text,
      blocks: [],
      ...this.blocks(message),
    });
  }

  async whisper(place: ChatPlace, user: string, text: string): Promise<void> {
    await this.client.chat.postEphemeral({ channel: place.channel, user, thread_ts: place.thread, text });
  }

  format(markdown: string): string {
    return toMrkdwn(markdown);
  }

  mention(user: string): string {
    return `<@${user}>`;
  }

  /**
   * The user's email as Slack has it now (needs the users:read.email scope); undefined when Slack
   * says it has none for them or may not tell (an answer with an error code). Slack not answering at
   * all is thrown: that is no answer, not "no email".
   */
  async emailOf(user: string): Promise<string | undefined> {
    const answer = await this.client.users.info({ user }).catch((error: unknown) => {
      if ((error as { code?: string }).code === "slack_webapi_platform_error") return undefined;
      throw error;
    });
    return answer?.user?.profile?.email || undefined;
  }

  private blocks(message: OutgoingMessage): { blocks?: never[] } {
    if (!message.confirmation) return {};
    return { blocks: confirmationBlocks(message.confirmation, (user) => this.mention(user)) as never[] };
  }
}
