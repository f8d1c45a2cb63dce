// The reference format inside stored values: message and list references, written and resolved.
import { createHash } from "node:crypto";
import { type BaseMessage, isBaseMessage } from "@langchain/core/messages";
import { messagesStateReducer } from "@langchain/langgraph";

/**
 * Message and list references inside stored values. A message is stored once per conversation
 * and referred to by key wherever it appears again (channel values, pending writes, the state a
 * `Send` carries); a list that is the very value a channel already stored is referred to by
 * channel and checkpoint. This is what keeps a step's writes proportional to what it added.
 */
export const MESSAGE_REF = "__sb_msg";
export const CHANNEL_REF = "__sb_chan";
/** Items after a referenced list: a list that extends a stored one (the state a Send carries). */
export const MORE = "__sb_more";
/** Shorter lists are cheaper to store item by item than to match against stored ones. */
export const MIN_MATCHED_LENGTH = 4;
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
export function plainCopy(chunk: BaseMessage): BaseMessage {
  return messagesStateReducer([], [chunk])[0] as BaseMessage;
}

/** The key a plain copy of the chunk stored under `chunkKey` is referred to by. */
export function plainCopyKey(chunkKey: string): string {
  return `${chunkKey}${PLAIN_COPY}`;
}

/** A message's document key: its id and a hash of its serialized form (an edit is a new document). */
export function messageKey(id: string, bytes: Uint8Array): string {
  return `${id}:${createHash("sha1").update(bytes).digest("hex").slice(0, 16)}`;
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
