// The queries the saver sends: the namespace/id conditions, the pending writes of a page, and indexes.
import type { Db, Filter } from "mongodb";
import { type CheckpointDoc, EXPIRY_FIELD, type SaverCollections, type WriteDoc } from "./documents.js";

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

/** The parts of a checkpoint's config a read narrows by (see configString). */
export interface CheckpointSelector {
  threadId?: string;
  ns?: string;
  id?: string;
  before?: string;
}

/** The checkpoints list() reads: a conversation's (or every one's), narrowed by namespace and id. */
export function checkpointsQuery({ threadId, ns, id, before }: CheckpointSelector): Filter<CheckpointDoc> {
  return { ...(threadId ? { thread_id: threadId } : {}), ...matching({ ns, id, before }) };
}

/**
 * The pending writes of a page of checkpoints, in one query. A page is a run of consecutive ids,
 * so a range per conversation finds its writes (listing across conversations, perhaps also a few
 * of checkpoints off the page, left aside). Undefined for an empty page: nothing to ask.
 */
export function pendingWritesQuery(
  docs: ReadonlyArray<Pick<CheckpointDoc, "thread_id" | "checkpoint_ns" | "checkpoint_id">>,
): Filter<WriteDoc> | undefined {
  if (docs.length === 0) return undefined;
  const ranges = new Map<string, { thread_id: string; ns: string; from: string; through: string }>();
  for (const { thread_id, checkpoint_ns: ns, checkpoint_id: id } of docs) {
    const group = `${thread_id}\u0000${ns}`;
    const range = ranges.get(group);
    if (!range) ranges.set(group, { thread_id, ns, from: id, through: id });
    else if (id < range.from) range.from = id;
    else if (id > range.through) range.through = id;
  }
  const $or = [...ranges.values()].map(({ thread_id, ns, from, through }) => ({
    thread_id,
    ...matching(from === through ? { ns, id: from } : { ns, from, through }),
  }));
  return $or.length === 1 ? ($or[0] as Filter<WriteDoc>) : { $or };
}
