// Pending writes as LangGraph applies them: grouped per checkpoint, one per slot, in its order.
import {
  type ChannelVersions,
  compareWritesSortKeys,
  maxChannelVersion,
  WRITES_IDX_MAP,
  writesSortKey,
} from "@langchain/langgraph-checkpoint";
import type { StoredWrite, WriteDoc } from "./documents.js";

/** The key a checkpoint's pending writes are grouped under. */
export function checkpointKey(doc: {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
}): string {
  return `${doc.thread_id}\u0000${doc.checkpoint_ns}\u0000${doc.checkpoint_id}`;
}

/** Write documents per checkpoint, each group in the order given (the order they were stored). */
export function groupByCheckpoint(found: readonly WriteDoc[]): Map<string, WriteDoc[]> {
  const byCheckpoint = new Map<string, WriteDoc[]>();
  for (const write of found) {
    const key = checkpointKey(write);
    byCheckpoint.set(key, [...(byCheckpoint.get(key) ?? []), write]);
  }
  return byCheckpoint;
}

/** One pending write to hand back: its task, and whether an upstream document held it. */
export interface WriteSlot {
  taskId: string;
  path: string;
  write: StoredWrite;
  upstream: boolean;
}

/**
 * A checkpoint's pending writes from its write documents (ours: one per task's call; upstream:
 * one per write), in LangGraph's order. Given in the order stored, a slot keeps its first regular
 * write (a retried task writes again) and its last special one (errors, interrupts: index < 0).
 */
export function orderedWrites(docs: readonly WriteDoc[]): WriteSlot[] {
  const slots = new Map<string, WriteSlot>();
  for (const doc of docs) {
    const upstream = !("writes" in doc);
    const writes: StoredWrite[] = upstream
      ? [{ i: doc.idx, c: doc.channel, t: doc.type, d: doc.value }]
      : doc.writes;
    for (const write of writes) {
      const slot = `${doc.task_id}\u0000${write.i}`;
      if (write.i >= 0 && slots.has(slot)) continue;
      slots.set(slot, { taskId: doc.task_id, path: upstream ? "" : doc.task_path, write, upstream });
    }
  }
  return [...slots.values()].sort((a, b) =>
    compareWritesSortKeys(
      writesSortKey(a.path, a.taskId, a.write.i),
      writesSortKey(b.path, b.taskId, b.write.i),
    ),
  );
}

/** A write's index in its task: special channels (errors, interrupts, …) have fixed negative ones. */
export function writeIndex(channel: string, idx: number): number {
  return WRITES_IDX_MAP[channel] ?? idx;
}

/**
 * The version a pre-v4 checkpoint's migrated pending sends get: the newest of its channels', or
 * the first version when it has none.
 */
export function pendingSendsVersion(
  versions: ChannelVersions,
  firstVersion: () => number | string,
): number | string {
  const all = Object.values(versions);
  return all.length > 0 ? maxChannelVersion(...all) : firstVersion();
}
