/**
 * What the relay needs from a chat platform. Slack is one adapter (slack/slack-platform.ts); Webex or
 * Teams would be another of the same shape: nothing in relay/ knows which platform it talks to.
 */
export interface ChatPlatform {
  /** Lower-case name, used in contextIds and metrics (`slack`). */
  readonly name: string;
  /** The longest text one message may hold; longer answers are split. */
  readonly maxMessageChars: number;
  /**
   * How many times the live message may be edited while a turn streams, when the platform limits
   * edits (Webex takes 10 a message: the rest are kept for the end and a decision). Unset: no limit.
   */
  readonly maxLiveEdits?: number;
  /** Posts a message in the thread; returns its id. */
  post(place: ChatPlace, message: OutgoingMessage): Promise<string>;
  /** Replaces a posted message's content. */
  update(place: ChatPlace, messageId: string, message: OutgoingMessage): Promise<void>;
  /** Shows text to one user only, in the thread (the account link, a refused button press). */
  whisper(place: ChatPlace, user: string, text: string): Promise<void>;
  /** The platform's rendering of the supervisor's markdown answer. */
  format(markdown: string): string;
  /** How a user is written so the platform shows them as a mention. */
  mention(user: string): string;
}

/** A thread in a channel of a workspace: where one conversation happens. */
export interface ChatPlace {
  workspace: string;
  channel: string;
  /** The thread's root message id (the mention that started it, or the DM message). */
  thread: string;
}

/** A message the relay shows: text, and for a change to confirm, its buttons or who decided. */
export interface OutgoingMessage {
  text: string;
  confirmation?: ConfirmationView;
}

export interface ConfirmationView {
  id: string;
  /** The change, in the platform's formatting. */
  question: string;
  agent?: string;
  /**
   * Set once someone decided: the buttons are gone and this is said instead. `refused`: the agent
   * did not let them decide another user's change (the question is asked again below).
   */
  decided?: { approved: boolean; by: string; refused?: boolean };
}

/** A user's message the relay acts on. */
export interface IncomingMessage {
  place: ChatPlace;
  /** Unique per message on the platform: a second delivery of it carries the same key. */
  key: string;
  user: string;
  text: string;
}

/** A press of Approve or Decline (by the user who asked, or by someone else the agent's policy may allow). */
export interface IncomingDecision {
  place: ChatPlace;
  user: string;
  confirmationId: string;
  approved: boolean;
}
