// Which message and list objects one saver has stored, by object identity; each saver owns its own.
import type { BaseMessage } from "@langchain/core/messages";

/** Where a list object was stored as a channel value. */
export interface ListHome {
  thread: string;
  ns: string;
  checkpoint: string;
  channel: string;
  length: number;
}

interface StoredMessage {
  thread: string;
  id: string;
  key: string;
}

/**
 * Keyed by object identity: LangGraph's reducers keep unchanged messages and lists as the same
 * objects from step to step, so identity tells what is already stored without serializing again.
 * One instance per saver: what one saver stored says nothing of another's collections (two
 * agents, or two option sets, in one process), so a reference never points into another's.
 */
export class StoredIdentities {
  private readonly messages = new WeakMap<object, StoredMessage>();
  private readonly lists = new WeakMap<object, ListHome>();

  rememberMessage(message: BaseMessage, thread: string, key: string): void {
    this.messages.set(message, { thread, id: String(message.id), key });
  }

  /** The key this message was stored under in this conversation, unless its id changed since. */
  messageKey(message: BaseMessage, thread: string): string | undefined {
    const known = this.messages.get(message);
    return known && known.thread === thread && known.id === message.id ? known.key : undefined;
  }

  rememberList(list: unknown[], home: Omit<ListHome, "length">): void {
    this.lists.set(list, { ...home, length: list.length });
  }

  /** Where this very list was stored in this conversation and namespace, unless it grew or shrank since. */
  listHome(list: unknown[], thread: string, ns: string): ListHome | undefined {
    const home = this.lists.get(list);
    return home && home.thread === thread && home.ns === ns && home.length === list.length ? home : undefined;
  }
}
