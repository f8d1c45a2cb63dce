// The documents the checkpoint saver stores: their shapes, format number and collection names.
import { collectionsFor } from "@switchboard/contract";
import type { Binary } from "mongodb";

/**
 * The documents the checkpoint saver stores, one collection of each kind per agent:
 * `checkpoints_<agent>`, `checkpoint_writes_<agent>` and `checkpoint_messages_<agent>`.
 * See the package README ("Conversation state") for why state is split this way.
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
