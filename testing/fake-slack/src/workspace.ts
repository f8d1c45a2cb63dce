/** A user of the fake workspace, as users.info describes them. */
export interface SlackUser {
  id: string;
  name: string;
  email?: string;
}

/** A message in a channel, with every text it had (chat.update keeps the history, for assertions). */
export interface SlackMessage {
  channel: string;
  ts: string;
  /** The thread it belongs to; the thread's first message has none. */
  threadTs?: string;
  user: string;
  text: string;
  blocks?: unknown[];
  /** Each text the message had, the first (posted) one first. */
  versions: Array<{ text: string; blocks?: unknown[]; at: number }>;
}

export interface Ephemeral {
  channel: string;
  /** The id chat.postEphemeral answered (`message_ts`): a press of its buttons names it. */
  ts: string;
  user: string;
  text: string;
  threadTs?: string;
  blocks?: unknown[];
  at: number;
}

/** What the fake workspace holds: its users, the messages in its channels, and what only one user saw. */
export class Workspace {
  readonly messages: SlackMessage[] = [];
  readonly ephemerals: Ephemeral[] = [];
  readonly users = new Map<string, SlackUser>();
  private clock = 0;

  constructor(
    readonly teamId: string,
    readonly botUserId: string,
  ) {}

  /** A message timestamp as Slack writes them (`seconds.micro`), strictly increasing. */
  nextTs(): string {
    this.clock = Math.max(this.clock + 1, Date.now() * 1000);
    const text = String(this.clock);
    return `${text.slice(0, -6)}.${text.slice(-6)}`;
  }

  add(message: Omit<SlackMessage, "versions">): SlackMessage {
    const stored: SlackMessage = {
      ...message,
      versions: [
        { text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}), at: Date.now() },
      ],
    };
    this.messages.push(stored);
    return stored;
  }

  find(channel: string, ts: string): SlackMessage | undefined {
    return this.messages.find((message) => message.channel === channel && message.ts === ts);
  }

  /** The thread's messages, its first one first. */
  thread(channel: string, threadTs: string): SlackMessage[] {
    return this.messages.filter(
      (message) => message.channel === channel && (message.ts === threadTs || message.threadTs === threadTs),
    );
  }
}
