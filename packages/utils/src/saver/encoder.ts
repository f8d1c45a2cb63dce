// Turning a value into what is stored: messages and stored lists replaced by references.
import { randomUUID } from "node:crypto";
import { type BaseMessage, BaseMessageChunk, isBaseMessage } from "@langchain/core/messages";
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import type { ListHome, StoredIdentities } from "./identity.js";
import {
  CHANNEL_REF,
  documentKey,
  MESSAGE_REF,
  MIN_MATCHED_LENGTH,
  MORE,
  messageKey,
  plainCopy,
  plainCopyKey,
} from "./refs.js";

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

/** Where the encoder writes: one conversation and namespace of one saver. */
export interface EncoderScope {
  serde: SerializerProtocol;
  /** The saver's own identity maps (never another saver's: see StoredIdentities). */
  identities: StoredIdentities;
  thread: string;
  ns: string;
  stored: StoredSoFar;
}

/**
 * The longest stored list this one starts with, item for item. LangGraph hands a conditional
 * edge a fresh copy of the state (the stored messages plus the node's new ones), and a Send
 * carries that copy: this stores it as a reference and the new items. The stored lists are asked
 * for only when the value could match (a message list), since gathering them is not free.
 */
export function longestStoredPrefix(value: unknown[], known: () => KnownList[]): KnownList | undefined {
  if (value.length < MIN_MATCHED_LENGTH || !isBaseMessage(value[0])) return undefined;
  let best: KnownList | undefined;
  for (const candidate of known()) {
    const { list } = candidate;
    if (list.length < MIN_MATCHED_LENGTH || list.length > value.length) continue;
    if (best && best.list.length >= list.length) continue;
    let same = true;
    for (let i = list.length - 1; i >= 0 && same; i--) same = list[i] === value[i];
    if (same) best = candidate;
  }
  return best;
}

/** Turns values into what is stored, collecting the messages not stored yet. */
export class ValueEncoder {
  /** New message bodies by key, to be written before anything that refers to them. */
  readonly newMessages = new Map<string, NewMessage>();
  /** New messages stored as the plain copy of a chunk (no body of their own), by key. */
  readonly newPlainCopies = new Map<string, BaseMessage>();

  constructor(private readonly scope: EncoderScope) {}

  async encode(value: unknown): Promise<Serialized> {
    const unknown = new Set<BaseMessage>();
    this.walk(value, (message) => {
      if (!this.knownKey(message)) unknown.add(message);
      return undefined;
    });
    await Promise.all([...unknown].map((message) => this.store(message)));
    return this.scope.serde.dumpsTyped(this.walk(value, (message) => this.knownKey(message)));
  }

  /** A copy of the value with messages (and lists stored before) replaced by references. */
  private walk(value: unknown, keyOf: (message: BaseMessage) => string | undefined): unknown {
    if (value === null || typeof value !== "object") return value;
    if (isBaseMessage(value)) return { [MESSAGE_REF]: keyOf(value) };
    if (Array.isArray(value)) {
      const { identities, thread, ns, stored } = this.scope;
      const home = identities.listHome(value, thread, ns);
      if (home) return { [CHANNEL_REF]: [home.channel, home.checkpoint] };
      const extended = longestStoredPrefix(value, () => stored.lists());
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

  private knownKey(message: BaseMessage): string | undefined {
    // LangGraph's messages reducer gives every message an id as it is added to state; giving it
    // one here, a moment earlier, lets a pending write and the channel value share one copy.
    if (message.id === undefined || message.id === null || message.id === "") {
      message.id = randomUUID();
      message.lc_kwargs.id = message.id;
    }
    const key = this.scope.identities.messageKey(message, this.scope.thread);
    return key !== undefined && this.has(key) ? key : undefined;
  }

  private has(key: string): boolean {
    const stored = documentKey(key);
    return this.scope.stored.hasMessage(stored) || this.newMessages.has(stored);
  }

  private async store(message: BaseMessage): Promise<void> {
    const { serde, identities, thread } = this.scope;
    const [type, bytes] = await serde.dumpsTyped(message);
    const key = messageKey(String(message.id), bytes);
    if (this.has(key)) {
      identities.rememberMessage(message, thread, key);
      return;
    }
    const copyKey = await this.plainCopyKey(message, bytes);
    if (copyKey) {
      identities.rememberMessage(message, thread, copyKey);
      this.newPlainCopies.set(copyKey, message);
      return;
    }
    identities.rememberMessage(message, thread, key);
    this.newMessages.set(key, { type, bytes, message });
  }

  /** The plain-copy key, when the message is exactly what the reducer keeps of a stored chunk. */
  private async plainCopyKey(message: BaseMessage, bytes: Uint8Array): Promise<string | undefined> {
    if (BaseMessageChunk.isInstance(message)) return undefined;
    const id = String(message.id);
    const { stored, serde } = this.scope;
    let chunkKey = stored.chunkKey(id);
    let chunk = chunkKey === undefined ? undefined : stored.message(chunkKey);
    if (!chunk) {
      for (const [key, added] of this.newMessages) {
        if (added.message.id === id && BaseMessageChunk.isInstance(added.message)) {
          [chunkKey, chunk] = [key, added.message];
        }
      }
    }
    if (!chunk || chunkKey === undefined) return undefined;
    const [, copyBytes] = await serde.dumpsTyped(plainCopy(chunk));
    return Buffer.from(copyBytes).equals(bytes) ? plainCopyKey(chunkKey) : undefined;
  }
}
