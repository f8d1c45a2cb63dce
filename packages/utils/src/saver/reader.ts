// Reading checkpoints: getTuple and list, documents turned into tuples with their pending writes.
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  TASKS,
} from "@langchain/langgraph-checkpoint";
import { ABSENT } from "./ancestry.js";
import { checkpointConfig, configString, metadataMatches } from "./config.js";
import type { CheckpointDoc, WriteDoc } from "./documents.js";
import { bytesOf, unpackBodies } from "./packing.js";
import { checkpointKey, groupByCheckpoint, orderedWrites, pendingSendsVersion } from "./pending-writes.js";
import { checkpointsQuery, matching, pendingWritesQuery } from "./queries.js";
import { isExpired } from "./retention.js";
import { deleteConversation, type SaverStore } from "./store.js";
import { learn, type ThreadState } from "./threads.js";
import type { ChannelValues } from "./values.js";

/** Checkpoints decoded per batch while listing, so each batch's pending writes take one query. */
const LIST_BATCH = 50;

export class CheckpointReader {
  constructor(
    private readonly store: SaverStore,
    private readonly values: ChannelValues,
    /** The saver's first channel version (BaseCheckpointSaver.getNextVersion(undefined)). */
    private readonly firstVersion: () => number | string,
  ) {}

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId = configString(config, "thread_id");
    if (threadId === undefined) return undefined;
    const ns = configString(config, "checkpoint_ns") ?? "";
    const checkpointId = configString(config, "checkpoint_id");
    const query = { thread_id: threadId, ...matching({ ns, id: checkpointId || undefined }) };
    const doc = await this.store.checkpoints.findOne(query, { sort: { checkpoint_id: -1 } });
    if (!doc) return undefined;
    if (!checkpointId && isExpired(doc.expire_at, this.store.ttlMs, Date.now())) {
      // Its TTL deletes it soon anyway; until then the conversation must not half-exist.
      await deleteConversation(this.store, threadId);
      return undefined;
    }
    const [tuple] = await this.toTuples([doc]);
    return tuple;
  }

  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const { limit, before, filter } = options ?? {};
    const query = checkpointsQuery({
      threadId: configString(config, "thread_id"),
      ns: configString(config, "checkpoint_ns"),
      id: configString(config, "checkpoint_id") || undefined,
      before: (before && configString(before, "checkpoint_id")) || undefined,
    });
    const filtered = filter !== undefined && Object.keys(filter).length > 0;
    let remaining = limit ?? Number.POSITIVE_INFINITY;
    if (remaining <= 0) return;
    const cursor = this.store.checkpoints.find(query, { sort: { checkpoint_id: -1 } });
    if (limit !== undefined && !filtered) cursor.limit(limit);
    const batchSize = Math.min(LIST_BATCH, remaining);
    let batch: CheckpointDoc[] = [];
    for await (const doc of cursor) {
      batch.push(doc);
      if (batch.length < batchSize) continue;
      for (const tuple of await this.toTuples(batch)) {
        if (filtered && !metadataMatches(tuple.metadata, filter)) continue;
        yield tuple;
        if (--remaining <= 0) return;
      }
      batch = [];
    }
    for (const tuple of await this.toTuples(batch)) {
      if (filtered && !metadataMatches(tuple.metadata, filter)) continue;
      yield tuple;
      if (--remaining <= 0) return;
    }
  }

  private async toTuples(docs: CheckpointDoc[]): Promise<CheckpointTuple[]> {
    // The writes are read while the values resolve (a cold reader saves a round trip).
    const writes = this.writesOf(docs);
    writes.catch(() => undefined); // awaited below; a failing value read must not leave it unhandled
    // One after another: each finds the nodes, values and messages the previous one loaded.
    const tuples: CheckpointTuple[] = [];
    for (const doc of docs) tuples.push(await this.toTuple(doc, writes));
    return tuples;
  }

  private async toTuple(
    doc: CheckpointDoc,
    writes: Promise<Map<string, WriteDoc[]>>,
  ): Promise<CheckpointTuple> {
    const { thread_id, checkpoint_ns: ns, checkpoint_id } = doc;
    const thread = this.store.threads.get(thread_id);
    learn(thread, doc);
    const ours = doc.format !== undefined;
    const bodies = ours
      ? unpackBodies(doc)
      : { checkpoint: bytesOf(doc.checkpoint), metadata: bytesOf(doc.metadata) };
    const type = doc.type ?? "json";
    const { serde } = this.store;
    const [checkpoint, metadata] = await Promise.all([
      serde.loadsTyped(type, bodies.checkpoint) as Promise<Checkpoint>,
      serde.loadsTyped(type, bodies.metadata) as Promise<CheckpointMetadata>,
    ]);
    if (ours) {
      checkpoint.id = checkpoint_id;
      checkpoint.channel_values = {};
      for (const [channel, version] of Object.entries(checkpoint.channel_versions)) {
        const resolved = await this.values.valueAt(thread, ns, checkpoint_id, channel);
        if (resolved && resolved.version === version && resolved.value !== ABSENT) {
          checkpoint.channel_values[channel] = this.values.handOut(resolved);
        }
      }
    }
    const pendingWrites = await this.decodeWrites(thread, ns, (await writes).get(checkpointKey(doc)) ?? []);
    if (checkpoint.v < 4 && doc.parent_checkpoint_id !== undefined) {
      await this.migratePendingSends(thread, checkpoint, doc);
    }
    const tuple: CheckpointTuple = {
      config: checkpointConfig(thread_id, ns, checkpoint_id),
      checkpoint,
      metadata,
      pendingWrites,
    };
    if (doc.parent_checkpoint_id !== undefined && doc.parent_checkpoint_id !== null) {
      tuple.parentConfig = checkpointConfig(thread_id, ns, doc.parent_checkpoint_id);
    }
    this.store.threads.touch(thread);
    return tuple;
  }

  /** The pending writes of each document's checkpoint, in the order they were stored. */
  private async writesOf(docs: CheckpointDoc[]): Promise<Map<string, WriteDoc[]>> {
    const query = pendingWritesQuery(docs);
    if (!query) return new Map();
    return groupByCheckpoint(await this.store.writes.find(query, { sort: { _id: 1 } }).toArray());
  }

  private async decodeWrites(
    thread: ThreadState,
    ns: string,
    docs: WriteDoc[],
  ): Promise<CheckpointPendingWrite[]> {
    return Promise.all(
      orderedWrites(docs).map(async ({ taskId, write, upstream }): Promise<CheckpointPendingWrite> => {
        const value = upstream
          ? await this.store.serde.loadsTyped(write.t ?? "json", bytesOf(write.d))
          : await this.values.decode(thread, ns, write.t ?? "json", write.d);
        return [taskId, write.c, value];
      }),
    );
  }

  /** Checkpoints before format 4 kept pending sends in their parent's writes. */
  private async migratePendingSends(
    thread: ThreadState,
    checkpoint: Checkpoint,
    doc: CheckpointDoc,
  ): Promise<void> {
    const parentWrites = await this.store.writes
      .find(
        {
          thread_id: doc.thread_id,
          ...matching({ ns: doc.checkpoint_ns, id: doc.parent_checkpoint_id ?? undefined }),
        },
        { sort: { _id: 1 } },
      )
      .toArray();
    const sends = (await this.decodeWrites(thread, doc.checkpoint_ns, parentWrites)).filter(
      ([, channel]) => channel === TASKS,
    );
    checkpoint.channel_values ??= {};
    checkpoint.channel_values[TASKS] = sends.map(([, , value]) => value);
    checkpoint.channel_versions ??= {};
    checkpoint.channel_versions[TASKS] = pendingSendsVersion(checkpoint.channel_versions, this.firstVersion);
  }
}
