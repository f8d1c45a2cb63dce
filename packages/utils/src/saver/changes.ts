// What a write stores: the channels that changed since the parent, and the documents built from them.
import type { ChannelVersions, Checkpoint } from "@langchain/langgraph-checkpoint";
import { type Binary, MongoBulkWriteError } from "mongodb";
import {
  type CheckpointDoc,
  FORMAT,
  type MessageDoc,
  type StoredValue,
  type WritesDoc,
} from "./documents.js";
import type { NewMessage } from "./encoder.js";
import { refuseOversized } from "./limits.js";
import { pack, packBody, typeField } from "./packing.js";

/** A channel LangGraph gave a new version at this checkpoint, and what it holds now. */
export type ChannelChange =
  | { channel: string; version: number | string; emptied: true }
  | { channel: string; version: number | string; emptied: false; value: unknown };

/**
 * The channels a checkpoint changed since its parent: those LangGraph gave a new version. One
 * absent from the values was emptied; a channel holding `undefined` holds it (LangGraph keeps the
 * two apart).
 */
export function changedChannels(checkpoint: Checkpoint, newVersions: ChannelVersions): ChannelChange[] {
  return Object.keys(newVersions).map((channel): ChannelChange => {
    const version = checkpoint.channel_versions[channel] ?? (newVersions[channel] as number | string);
    if (!(channel in checkpoint.channel_values)) return { channel, version, emptied: true };
    return { channel, version, emptied: false, value: checkpoint.channel_values[channel] };
  });
}

/** What a changed channel stores: only the items after the `kept` ones it shares with its parent's list. */
export function storedPart(value: unknown, kept: number): unknown {
  return kept > 0 ? (value as unknown[]).slice(kept) : value;
}

/** A changed channel as stored: emptied, or its packed value (with `k` when it extends the parent's list). */
export function storedValue(
  change: ChannelChange,
  packed?: { type: string; data: Binary },
  kept = 0,
): StoredValue {
  if (change.emptied || !packed) return { c: change.channel, v: change.version, x: true };
  const stored: StoredValue = {
    c: change.channel,
    v: change.version,
    ...typeField(packed.type),
    d: packed.data,
  };
  if (kept > 0) stored.k = kept;
  return stored;
}

/** The checkpoint without its channel values (stored apart, see StoredValue) and its id (a field of its own). */
export function checkpointBody(checkpoint: Checkpoint): Omit<Checkpoint, "channel_values" | "id"> {
  const { channel_values: _values, id: _id, ...rest } = checkpoint;
  return rest;
}

/** The bytes a checkpoint document will hold, about: its body and every stored value. */
export function storedSize(values: readonly StoredValue[], checkpointBytes: number): number {
  return values.reduce((sum, value) => sum + (value.d?.length() ?? 0), checkpointBytes);
}

export interface CheckpointFields {
  threadId: string;
  ns: string;
  checkpointId: string;
  parent?: string;
  /** The serializer's type of the checkpoint and metadata bytes. */
  type: string;
  checkpointBytes: Uint8Array;
  metadataBytes: Uint8Array;
  values: StoredValue[];
  expireAt?: Date;
}

export function checkpointDocument(fields: CheckpointFields): CheckpointDoc {
  const { threadId, ns, checkpointId, parent, type, checkpointBytes, metadataBytes, values, expireAt } =
    fields;
  const doc: CheckpointDoc = {
    thread_id: threadId,
    checkpoint_ns: ns,
    checkpoint_id: checkpointId,
    format: FORMAT,
    ...(type === "json" ? {} : { type }),
    checkpoint: packBody(checkpointBytes),
    metadata: packBody(metadataBytes),
    values,
  };
  if (parent !== undefined) doc.parent_checkpoint_id = parent;
  if (expireAt) doc.expire_at = expireAt;
  return doc;
}

/** One task's writes as one document, each value packed (each refused past the document limit). */
export function writesDocument(
  target: { threadId: string; ns: string; checkpointId: string; taskId: string; taskPath?: string },
  writes: WritesDoc["writes"],
  expireAt?: Date,
): WritesDoc {
  const doc: WritesDoc = {
    thread_id: target.threadId,
    checkpoint_ns: target.ns,
    checkpoint_id: target.checkpointId,
    task_id: target.taskId,
    task_path: target.taskPath ?? "",
    writes,
  };
  if (expireAt) doc.expire_at = expireAt;
  return doc;
}

/** The new messages' documents, each packed; one past the document limit is refused. */
export function messageDocuments(
  threadId: string,
  messages: ReadonlyMap<string, NewMessage>,
  expireAt?: Date,
): MessageDoc[] {
  const docs: MessageDoc[] = [];
  for (const [key, { type, bytes }] of messages) {
    refuseOversized(bytes.byteLength);
    const packed = pack(type, bytes);
    const doc: MessageDoc = { thread_id: threadId, key, type: packed.type, body: packed.data };
    if (expireAt) doc.expire_at = expireAt;
    docs.push(doc);
  }
  return docs;
}

/** Whether a failed insert only met documents already stored (same key, same content). */
export function onlyDuplicates(error: unknown): boolean {
  return (
    error instanceof MongoBulkWriteError &&
    (Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors]).every(
      (writeError) => writeError.code === 11000,
    )
  );
}
