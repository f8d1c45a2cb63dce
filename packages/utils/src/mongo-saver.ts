import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from "@langchain/langgraph-checkpoint";
import type { Db } from "mongodb";
import type { SaverCollections } from "./saver/documents.js";
import { createSaverIndexes } from "./saver/queries.js";
import { CheckpointReader } from "./saver/reader.js";
import { deleteConversation, openStore, type SaverStore } from "./saver/store.js";
import { ChannelValues } from "./saver/values.js";
import { CheckpointWriter } from "./saver/writer.js";

export { MAX_VALUE_BYTES } from "./saver/limits.js";

export interface MongoSaverOptions {
  db: Db;
  collections: SaverCollections;
  /** A conversation expires this long after its last activity; unset keeps it forever. */
  ttlSeconds?: number;
  /** Bytes of conversations kept decoded in memory (default 64 MB). */
  cacheBytes?: number;
}

/**
 * A LangGraph checkpoint saver on MongoDB whose storage grows with the conversation, not with its
 * square: a checkpoint stores only the channels that changed; a list that grew stores only what
 * it added; a message is stored once per conversation and referred to wherever it appears again.
 * Writes are ordered so that a crash leaves at most unreferenced messages, never a checkpoint
 * that refers to something missing. Reads documents written by upstream's MongoDBSaver, so
 * conversations stored before continue.
 *
 * The work is done by its parts in ./saver/ (reader.ts and values.ts read, writer.ts writes);
 * each saver has a store of its own (cache and identity maps), shared with no other saver.
 */
export class MongoCheckpointSaver extends BaseCheckpointSaver {
  private readonly store: SaverStore;
  private readonly reader: CheckpointReader;
  private readonly writer: CheckpointWriter;

  constructor(private readonly options: MongoSaverOptions) {
    super();
    this.store = openStore({ ...options, serde: this.serde });
    const values = new ChannelValues(this.store);
    this.reader = new CheckpointReader(this.store, values, () => this.getNextVersion(undefined));
    this.writer = new CheckpointWriter(this.store, values);
  }

  /** Creates the indexes every lookup uses (and the TTL indexes when retention is on). */
  async setup(): Promise<void> {
    await createSaverIndexes(this.options.db, this.options.collections, this.store.ttlMs !== undefined);
  }

  getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return this.reader.getTuple(config);
  }

  list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    return this.reader.list(config, options);
  }

  put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    return this.writer.put(config, checkpoint, metadata, newVersions);
  }

  putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath?: string,
  ): Promise<void> {
    return this.writer.putWrites(config, writes, taskId, taskPath);
  }

  async deleteThread(threadId: string): Promise<void> {
    if (typeof threadId !== "string") throw new Error("Invalid threadId: expected a string");
    await deleteConversation(this.store, threadId);
  }
}
