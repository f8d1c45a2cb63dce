import { createHash, randomUUID } from "node:crypto";
import { type BaseMessage, BaseMessageChunk, isBaseMessage } from "@langchain/core/messages";
import { messagesStateReducer } from "@langchain/langgraph";
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";

/**
 * Message and list references inside stored values. A message is stored once per conversation
 * and referred to by key wherever it appears again (channel values, pending writes, the state a
 * `Send` carries); a list that is the very value a channel already stored is referred to by
 * channel and checkpoint. This is what keeps a step's writes proportional to what it added.
 */
const MESSAGE_REF = "__sb_msg";
const CHANNEL_REF = "__sb_chan";
/** Items after a referenced list: a list that extends a stored one (the state a Send carries). */
const MORE = "__sb_more";
/** Shorter lists are cheaper to store item by item than to match against stored ones. */
const MIN_MATCHED_LENGTH = 4;
/**
 * Ends the key of a message that is the plain copy of a stored chunk. A streaming model node
 * writes an `AIMessageChunk`; the messages reducer keeps its plain `AIMessage` copy in the
 * channel. The copy is stored as the chunk's key and this suffix, not as a second body. A stored
 * key ends in hex digits, so the suffix cannot be part of one.
 */
const PLAIN_COPY = "~plain";

/** The key of the document holding a message (a plain copy's is its chunk's). */
export function documentKey(key: string): string {
  return key.endsWith(PLAIN_COPY) ? key.slice(0, -PLAIN_COPY.length) : key;
}

/** The message a key names, given the message its document holds. */
export function messageFor(key: string, stored: BaseMessage): BaseMessage {
  return key.endsWith(PLAIN_COPY) ? plainCopy(stored) : stored;
}

/** What the messages reducer keeps of a chunk: its plain class, same id and content. */
function plainCopy(chunk: BaseMessage): BaseMessage {
  return messagesStateReducer([], [chunk])[0] as BaseMessage;
}

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

// Keyed by object identity: LangGraph's reducers keep unchanged messages and lists as the same
// objects from step to step, so identity tells what is already stored without serializing again.
const storedMessages = new WeakMap<object, StoredMessage>();
const listHomes = new WeakMap<object, ListHome>();

export function rememberMessage(message: BaseMessage, thread: string, key: string): void {
  storedMessages.set(message, { thread, id: String(message.id), key });
}

export function rememberList(list: unknown[], home: Omit<ListHome, "length">): void {
  listHomes.set(list, { ...home, length: list.length });
}

export type Serialized = [type: string, bytes: Uint8Array];

/** A list already stored in this conversation, which a new list may extend. */
export interface KnownList {
  home: Omit<ListHome, "length">;
  list: unknown[];
}

/** A message to be stored, with the object it came from. */
export interface NewMessage {
  type: string;
  bytes: Uint8Array;
  message: BaseMessage;
}

/** What a conversation has stored already, as far as this process knows. */
export interface StoredSoFar {
  hasMessage(key: string): boolean;
  /** The key of the stored chunk with this message id, if any. */
  chunkKey(id: string): string | undefined;
  message(key: string): BaseMessage | undefined;
  lists(): KnownList[];
}

/** Turns values into what is stored, collecting the messages not stored yet. */
export class ValueEncoder {
  /** New message bodies by key, to be written before anything that refers to them. */
  readonly newMessages = new Map<string, NewMessage>();
  /** New messages stored as the plain copy of a chunk (no body of their own), by key. */
  readonly newPlainCopies = new Map<string, BaseMessage>();

  constructor(
    private readonly serde: SerializerProtocol,
    private readonly thread: string,
    private readonly ns: string,
    private readonly stored: StoredSoFar,
  ) {}

  async encode(value: unknown): Promise<Serialized> {
    const unknown = new Set<BaseMessage>();
    this.walk(value, (message) => {
      if (!this.knownKey(message)) unknown.add(message);
      return undefined;
    });
    await Promise.all([...unknown].map((message) => this.store(message)));
    return this.serde.dumpsTyped(this.walk(value, (message) => this.knownKey(message)));
  }

  /** A copy of the value with messages (and lists stored before) replaced by references. */
  private walk(value: unknown, keyOf: (message: BaseMessage) => string | undefined): unknown {
    if (value === null || typeof value !== "object") return value;
    if (isBaseMessage(value)) return { [MESSAGE_REF]: keyOf(value) };
    if (Array.isArray(value)) {
      const home = listHomes.get(value);
      if (home && home.thread === this.thread && home.ns === this.ns && home.length === value.length) {
        return { [CHANNEL_REF]: [home.channel, home.checkpoint] };
      }
      const extended = this.extendedList(value);
      if (extended) {
        const more = value.slice(extended.list.length).map((item) => this.walk(item, keyOf));
        return { [CHANNEL_REF]: [extended.home.channel, extended.home.checkpoint], [MORE]: more };
      }
      return value.map((item) => this.walk(item, keyOf));
    }
    const record = value as Record<string, unknown>;
    // A Send is stored as its node and arguments (as LangGraph's serializer stores it).
    if (record.lg_name === "Send") {
      const send: Record<string, unknown> = { node: record.node, args: this.walk(record.args, keyOf) };
      if (record.timeout !== undefined) send.timeout = record.timeout;
      return send;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return value;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(record)) copy[key] = this.walk(item, keyOf);
    return copy;
  }

  /**
   * The longest stored list this one starts with, item for item. LangGraph hands a conditional
   * edge a fresh copy of the state (the stored messages plus the node's new ones), and a Send
   * carries that copy: this stores it as a reference and the new items.
   */
  private extendedList(value: unknown[]): KnownList | undefined {
    if (value.length < MIN_MATCHED_LENGTH || !isBaseMessage(value[0])) return undefined;
    let best: KnownList | undefined;
    for (const known of this.stored.lists()) {
      const { list } = known;
      if (list.length < MIN_MATCHED_LENGTH || list.length > value.length) continue;
      if (best && best.list.length >= list.length) continue;
      let same = true;
      for (let i = list.length - 1; i >= 0 && same; i--) same = list[i] === value[i];
      if (same) best = known;
    }
    return best;
  }

  private knownKey(message: BaseMessage): string | undefined {
    // LangGraph's messages reducer gives every message an id as it is added to state; giving it
    // one here, a moment earlier, lets a pending write and the channel value share one copy.
    if (message.id === undefined || message.id === null || message.id === "") {
      message.id = randomUUID();
      message.lc_kwargs.id = message.id;
    }
    const known = storedMessages.get(message);
    const current = known && known.thread === this.thread && known.id === message.id;
    return current && this.has(known.key) ? known.key : undefined;
  }

  private has(key: string): boolean {
    const stored = documentKey(key);
    return this.stored.hasMessage(stored) || this.newMessages.has(stored);
  }

  private async store(message: BaseMessage): Promise<void> {
    const [type, bytes] = await this.serde.dumpsTyped(message);
    const key = `${message.id}:${createHash("sha1").update(bytes).digest("hex").slice(0, 16)}`;
    if (this.has(key)) {
      rememberMessage(message, this.thread, key);
      return;
    }
    const copyKey = await this.plainCopyKey(message, bytes);
    if (copyKey) {
      rememberMessage(message, this.thread, copyKey);
      this.newPlainCopies.set(copyKey, message);
      return;
    }
    rememberMessage(message, this.thread, key);
    this.newMessages.set(key, { type, bytes, message });
  }

  /** The plain-copy key, when the message is exactly what the reducer keeps of a stored chunk. */
  private async plainCopyKey(message: BaseMessage, bytes: Uint8Array): Promise<string | undefined> {
    if (BaseMessageChunk.isInstance(message)) return undefined;
    const id = String(message.id);
    let chunkKey = this.stored.chunkKey(id);
    let chunk = chunkKey === undefined ? undefined : this.stored.message(chunkKey);
    if (!chunk) {
      for (const [key, added] of this.newMessages) {
        if (added.message.id === id && BaseMessageChunk.isInstance(added.message)) {
          [chunkKey, chunk] = [key, added.message];
        }
      }
    }
    if (!chunk || chunkKey === undefined) return undefined;
    const [, copyBytes] = await this.serde.dumpsTyped(plainCopy(chunk));
    return Buffer.from(copyBytes).equals(bytes) ? `${chunkKey}${PLAIN_COPY}` : undefined;
  }
}

/** The message keys and channel references a stored value's JSON text mentions. */
export function referencesIn(text: string): { messages: string[]; lists: Array<[string, string]> } {
  const messages: string[] = [];
  const lists: Array<[string, string]> = [];
  for (const match of text.matchAll(MESSAGE_REF_PATTERN)) messages.push(JSON.parse(match[1] as string));
  for (const match of text.matchAll(CHANNEL_REF_PATTERN)) {
    lists.push([JSON.parse(match[1] as string), JSON.parse(match[2] as string)]);
  }
  return { messages, lists };
}

const JSON_STRING = String.raw`("(?:[^"\\]|\\.)*")`;
const MESSAGE_REF_PATTERN = new RegExp(`"${MESSAGE_REF}":${JSON_STRING}`, "g");
const CHANNEL_REF_PATTERN = new RegExp(`"${CHANNEL_REF}":\\[${JSON_STRING},${JSON_STRING}\\]`, "g");

/** Puts messages and lists back where a decoded value refers to them (in place). */
export function restoreRefs(
  value: unknown,
  message: (key: string) => BaseMessage,
  list: (channel: string, checkpoint: string) => unknown,
): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restoreRefs(value[i], message, list);
    return value;
  }
  if (isBaseMessage(value)) return value;
  const record = value as Record<string, unknown>;
  const key = record[MESSAGE_REF];
  if (typeof key === "string") return message(key);
  const ref = record[CHANNEL_REF];
  if (Array.isArray(ref)) {
    const stored = list(String(ref[0]), String(ref[1]));
    const more = record[MORE];
    if (!Array.isArray(more)) return stored;
    return [...(stored as unknown[]), ...(restoreRefs(more, message, list) as unknown[])];
  }
  for (const [field, item] of Object.entries(record)) record[field] = restoreRefs(item, message, list);
  return value;
}
