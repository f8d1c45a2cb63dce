import type { Logger } from "@switchboard/common";
import type { ChatPlace, ChatPlatform, OutgoingMessage } from "./chat-platform.js";
import { splitMessage } from "./split.js";

/**
 * The placeholder a turn streams into: who is working, then the answer as it grows. Edits are at
 * least `intervalMs` apart (Slack allows about one a second per message; the client also waits out a
 * 429), one at a time and in order, the latest state winning; the end replaces the placeholder and
 * splits a long answer into further messages in the thread.
 */
export class LiveMessage {
  private activity: string | undefined;
  private answer = "";
  private lastEdit = 0;
  private edits = 0;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private finished = false;

  constructor(
    private readonly platform: ChatPlatform,
    private readonly place: ChatPlace,
    readonly messageId: string,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  /** Who is working on what now, e.g. `jira: Calling search_issues`. */
  working(activity: string): void {
    this.activity = activity;
    this.schedule();
  }

  /** The answer so far (markdown). */
  streamed(answer: string): void {
    this.answer = answer;
    this.schedule();
  }

  /** Ends the live part: the placeholder becomes `messages[0]`, the rest follow in the thread. */
  async finish(messages: OutgoingMessage[]): Promise<void> {
    this.finished = true;
    clearTimeout(this.timer);
    await this.writing;
    const [first, ...rest] = messages.flatMap((message) =>
      message.confirmation
        ? [message]
        : splitMessage(message.text, this.platform.maxMessageChars).map((text) => ({ text })),
    );
    if (first) await this.platform.update(this.place, this.messageId, first);
    for (const message of rest) await this.platform.post(this.place, message);
  }

  private schedule(): void {
    if (this.finished || this.timer) return;
    const wait = Math.max(0, this.lastEdit + this.intervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.edit();
    }, wait);
  }

  private edit(): void {
    if (this.finished) return;
    // Past the platform's budget of edits, progress waits for the end (which always shows).
    if (this.platform.maxLiveEdits !== undefined && this.edits >= this.platform.maxLiveEdits) return;
    this.edits += 1;
    this.lastEdit = Date.now();
    const text = this.render();
    this.writing = this.writing
      .then(() => (this.finished ? undefined : this.platform.update(this.place, this.messageId, { text })))
      .catch((error: unknown) => {
        this.logger.warn({ reason: (error as Error).message }, "could not update the live message");
      });
  }

  private render(): string {
    const max = this.platform.maxMessageChars - 200;
    let answer = this.answer ? this.platform.format(this.answer) : "";
    if (answer.length > max) answer = `${answer.slice(0, max)}…`;
    const activity = `_${this.activity ? `Working: ${this.platform.format(this.activity)}` : "Working on it…"}_`;
    return answer ? `${answer}\n\n${activity}` : activity;
  }
}
