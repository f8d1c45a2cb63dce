/** The fields of Slack Web API objects that the fake keeps, named as Slack names them. */
export interface Channel {
  id: string;
  name: string;
  is_private: boolean;
  is_archived: boolean;
  is_member: boolean;
  topic: { value: string };
  purpose: { value: string };
  num_members: number;
}

export interface Message {
  type: "message";
  user: string;
  text: string;
  /** Slack's message id: seconds.microseconds since the epoch, as a string. */
  ts: string;
  thread_ts?: string;
}

export interface User {
  id: string;
  name: string;
  real_name: string;
}

/** A message posted through chat.postMessage, for tests. */
export interface PostedMessage {
  channel: string;
  text: string;
  ts: string;
  thread_ts?: string;
}

export interface SlackState {
  channels: Channel[];
  /** Messages by channel id, newest first as conversations.history returns them. */
  history: Map<string, Message[]>;
  users: User[];
  posted: PostedMessage[];
  /** The bot's own user id: the author of posted messages. */
  botUserId: string;
}
