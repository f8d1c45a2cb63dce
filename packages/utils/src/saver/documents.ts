import { deflateRawSync, inflateRawSync } from "node:zlib";
import { collectionsFor } from "@switchboard/contract";
import { Binary, type Db } from "mongodb";
import { DICTIONARY_1 } from "./saver-dictionary.js";

/**
 * The documents the checkpoint saver stores, one collection of each kind per agent:
 * `checkpoints_<agent>`, `checkpoint_writes_<agent>` and `checkpoint_messages_<agent>`.
 * See docs/ARCHITECTURE.md ("Conversation state") for why state is split this way.
 */
export interface SaverCollections {
  checkpoints: string;
  writes: string;
  messages: string;
}

/** An agent's own checkpoint collections (the contract's names). */
export function agentCollections(agent: string): SaverCollections {
  const names = collectionsFor(agent);
  return {
    checkpoints: names.checkpoints,
    writes: names.checkpointWrites,
    messages: names.checkpointMessages,
  };
}

/**
 * Documents written by this saver carry it; upstream MongoDBSaver's documents have none.
 * 3: checkpoint and metadata deflated with the preset dictionary. 2 (still read): the checkpoint
 * deflated without one, the metadata as is.
 */
export const FORMAT = 3;

/**
 * One channel value a checkpoint changed. A list that extends its parent's value stores only
 * what it adds: `k` items are kept from the value of the same channel at the parent checkpoint.
 */
export interface StoredValue {
  /** Channel name. */
  c: string;
  /** The channel's version at this checkpoint. */
  v: number | string;
  /** Serializer type of `d` (with how it is packed), when not plain "json". */
  t?: string;
  /** The value (or, with `k`, the appended items), serialized with message references. */
  d?: Binary;
  /** Items kept from the parent's value before the appended ones. */
  k?: number;
  /** The channel was emptied at this checkpoint. */
  x?: true;
}

export interface CheckpointDoc {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id?: string;
  /** Absent on upstream documents, whose `checkpoint` holds every channel value. */
  format?: 2 | typeof FORMAT;
  /** Serializer type of `checkpoint` and `metadata`; absent for "json" (ours only). */
  type?: string;
  /** The checkpoint without its channel values (ours: packed, see packBody). */
  checkpoint: Binary;
  metadata: Binary;
  values?: StoredValue[];
  expire_at?: Date;
}

/** The writes of one task, as one putWrites call stored them. */
export interface WritesDoc {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  task_id: string;
  task_path: string;
  writes: StoredWrite[];
  expire_at?: Date;
}

export interface StoredWrite {
  /** Index of the write in its task (negative for errors, interrupts and the like). */
  i: number;
  c: string;
  /** As StoredValue's. */
  t?: string;
  d: Binary;
}

/** One write per document, as upstream MongoDBSaver stored them. */
export interface UpstreamWriteDoc {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  task_id: string;
  idx: number;
  channel: string;
  type: string;
  value: Binary;
}

export type WriteDoc = WritesDoc | UpstreamWriteDoc;

/** A message, stored once per conversation however many checkpoints and writes refer to it. */
export interface MessageDoc {
  thread_id: string;
  /** `<message id>:<hash of its serialized form>`: an edited message is a new document. */
  key: string;
  type: string;
  body: Binary;
  expire_at?: Date;
}

/** The field every document carries when retention is on; its TTL index expires at that time. */
export const EXPIRY_FIELD = "expire_at";

/** What a query asks of a document beside its conversation (`thread_id`, a plain equality). */
export interface DocumentConditions {
  ns?: string;
  /** This checkpoint id, or the ids before one, or a range of them (both ends included). */
  id?: string;
  before?: string;
  from?: string;
  through?: string;
  /** A message document's key among these. */
  keys?: string[];
}

/**
 * The conditions on namespace and checkpoint id, as one `$expr`. DocumentDB plans a plain
 * equality on the root namespace "" (nearly every document's) and any range on checkpoint_id
 * badly: at 100k stored, 7 ms more per read, 20 ms per upsert, 35–50 ms for a `$lt` that returns
 * 10 checkpoints, and ~0.8 ms per key of an `$in`. As `$expr` it filters the conversation's
 * documents, found by the `thread_id` equality, in ~1.5 ms. MongoDB turns the comparisons into
 * the same index bounds; an `$in` of keys filters the conversation's messages, which a reader
 * that lacks some mostly needs anyway.
 */
export function matching({ ns, id, before, from, through, keys }: DocumentConditions): { $expr?: unknown } {
  const clauses: unknown[] = [];
  if (ns !== undefined) clauses.push({ $eq: ["$checkpoint_ns", ns] });
  if (id !== undefined) clauses.push({ $eq: ["$checkpoint_id", id] });
  if (before !== undefined) clauses.push({ $lt: ["$checkpoint_id", before] });
  if (from !== undefined) clauses.push({ $gte: ["$checkpoint_id", from] });
  if (through !== undefined) clauses.push({ $lte: ["$checkpoint_id", through] });
  if (keys !== undefined) clauses.push({ $in: ["$key", keys] });
  if (clauses.length === 0) return {};
  return { $expr: clauses.length === 1 ? clauses[0] : { $and: clauses } };
}

/** Indexes for every lookup the saver makes, and for retention; made at start-up, idempotently. */
export async function createSaverIndexes(db: Db, names: SaverCollections, withTtl: boolean): Promise<void> {
  const ttl = withTtl ? [{ key: { [EXPIRY_FIELD]: 1 }, name: "expire_at_ttl", expireAfterSeconds: 0 }] : [];
  await Promise.all([
    db
      .collection(names.checkpoints)
      .createIndexes([
        { key: { thread_id: 1, checkpoint_ns: 1, checkpoint_id: -1 }, name: "thread_ns_checkpoint_idx" },
        ...ttl,
      ]),
    db.collection(names.writes).createIndexes([
      {
        key: { thread_id: 1, checkpoint_ns: 1, checkpoint_id: 1, task_id: 1, idx: 1 },
        name: "thread_ns_checkpoint_task_idx",
      },
      ...ttl,
    ]),
    db
      .collection(names.messages)
      .createIndexes([{ key: { thread_id: 1, key: 1 }, name: "thread_key_idx", unique: true }, ...ttl]),
  ]);
}

/** Shorter serialized values are stored as they are: deflate would not make them smaller. */
const MIN_PACKED_BYTES = 24;
/** Type suffixes: deflated with DICTIONARY_1, and (format 2, still read) without a dictionary. */
const PACKED = "+zd1";
const PACKED_WITHOUT_DICTIONARY = "+deflate";

/** A serialized value as stored: deflated with the preset dictionary when that is smaller. */
export function pack(type: string, bytes: Uint8Array): { type: string; data: Binary } {
  if (bytes.byteLength >= MIN_PACKED_BYTES) {
    const packed = deflateRawSync(bytes, { dictionary: DICTIONARY_1 });
    if (packed.byteLength < bytes.byteLength) return { type: type + PACKED, data: new Binary(packed) };
  }
  return { type, data: new Binary(bytes) };
}

/** The serializer's type and bytes of a stored value. */
export function unpack(type: string, data: Binary): { type: string; bytes: Uint8Array } {
  const bytes = bytesOf(data);
  if (type.endsWith(PACKED)) {
    return {
      type: type.slice(0, -PACKED.length),
      bytes: inflateRawSync(bytes, { dictionary: DICTIONARY_1 }),
    };
  }
  if (type.endsWith(PACKED_WITHOUT_DICTIONARY)) {
    return { type: type.slice(0, -PACKED_WITHOUT_DICTIONARY.length), bytes: inflateRawSync(bytes) };
  }
  return { type, bytes };
}

/** A checkpoint's or its metadata's serialized bytes as stored in one of our documents. */
export function packBody(bytes: Uint8Array): Binary {
  return new Binary(deflateRawSync(bytes, { dictionary: DICTIONARY_1 }));
}

/** The serialized checkpoint and metadata of one of our documents. */
export function unpackBodies(doc: CheckpointDoc): { checkpoint: Uint8Array; metadata: Uint8Array } {
  if (doc.format === 2) {
    return { checkpoint: inflateRawSync(bytesOf(doc.checkpoint)), metadata: bytesOf(doc.metadata) };
  }
  const options = { dictionary: DICTIONARY_1 };
  return {
    checkpoint: inflateRawSync(bytesOf(doc.checkpoint), options),
    metadata: inflateRawSync(bytesOf(doc.metadata), options),
  };
}

export function bytesOf(data: Binary): Uint8Array {
  return data.buffer.subarray(0, data.length());
}
