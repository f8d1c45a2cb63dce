// Writing checkpoints and pending writes: what changed, encoded, stored in crash-safe order.
import type { RunnableConfig } from "@langchain/core/runnables";
import type {
  ChannelVersions,
  Checkpoint,
  CheckpointMetadata,
  PendingWrite,
} from "@langchain/langgraph-checkpoint";
import { sharedPrefixLength } from "./ancestry.js";
import {
  changedChannels,
  checkpointBody,
  checkpointDocument,
  messageDocuments,
  onlyDuplicates,
  storedPart,
  storedSize,
  storedValue,
  writesDocument,
} from "./changes.js";
import { checkpointConfig, configString, requiredString } from "./config.js";
import { type CheckpointDoc, EXPIRY_FIELD, type StoredValue, type StoredWrite } from "./documents.js";
import { type KnownList, ValueEncoder } from "./encoder.js";
import { refuseOversized } from "./limits.js";
import { pack, typeField } from "./packing.js";
import { writeIndex } from "./pending-writes.js";
import { matching } from "./queries.js";
import { expiryAt, refreshDue } from "./retention.js";
import { SerialQueue } from "./serial.js";
import { perThread, type SaverStore } from "./store.js";
import { memoKey, type ThreadState } from "./threads.js";
import type { ChannelValues } from "./values.js";

export class CheckpointWriter {
  /**
   * One conversation's writes run one after another in this process, as LangGraph issues them
   * (a step's writes and the next checkpoint may otherwise overlap): each then finds the messages
   * the previous stored, so a message is inserted once and a chunk's plain copy is recognized.
   * Only a writes document's own insert runs beside what follows it (see putWrites).
   */
  private readonly queue = new SerialQueue();

  constructor(
    private readonly store: SaverStore,
    private readonly values: ChannelValues,
  ) {}

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const threadId = requiredString(config, "thread_id");
    return this.queue.run(threadId, () =>
      this.putCheckpoint(threadId, config, checkpoint, metadata, newVersions),
    );
  }

  async putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath?: string,
  ): Promise<void> {
    const threadId = requiredString(config, "thread_id");
    // The queue holds a step's writes until their messages are stored (after the checkpoint they
    // belong to); their document then goes out beside the next checkpoint, which needs only those
    // messages: it holds the step's result itself, so neither document waits for the other.
    const insert = await this.queue.run(threadId, () =>
      this.taskWrites(threadId, config, writes, taskId, taskPath),
    );
    await insert?.();
  }

  private async putCheckpoint(
    threadId: string,
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const ns = configString(config, "checkpoint_ns") ?? "";
    const parent = configString(config, "checkpoint_id");
    const thread = this.store.threads.get(threadId);
    if (parent !== undefined) await this.values.ensureNode(thread, ns, parent);

    const encoder = this.encoder(thread, ns);
    const values: StoredValue[] = [];
    const lists: Array<[string, unknown[]]> = [];
    for (const change of changedChannels(checkpoint, newVersions)) {
      if (change.emptied) {
        values.push(storedValue(change));
        continue;
      }
      const { channel, value } = change;
      const kept =
        parent !== undefined && Array.isArray(value)
          ? await this.keptPrefix(thread, ns, parent, channel, value)
          : 0;
      const [type, bytes] = await encoder.encode(storedPart(value, kept));
      refuseOversized(bytes.byteLength);
      values.push(storedValue(change, pack(type, bytes), kept));
      if (Array.isArray(value)) lists.push([channel, value]);
    }
    const [[type, checkpointBytes], [metadataType, metadataBytes]] = await Promise.all([
      this.store.serde.dumpsTyped(checkpointBody(checkpoint)),
      this.store.serde.dumpsTyped(metadata),
    ]);
    if (type !== metadataType) throw new Error("Mismatched checkpoint and metadata types.");
    refuseOversized(storedSize(values, checkpointBytes.byteLength));

    // Messages first: a crash between the two leaves unreferenced messages, never a dangling ref.
    await this.insertMessages(thread, encoder);
    const doc = checkpointDocument({
      threadId,
      ns,
      checkpointId: checkpoint.id,
      parent,
      type,
      checkpointBytes,
      metadataBytes,
      values,
      expireAt: expiryAt(Date.now(), this.store.ttlMs),
    });
    await this.refreshExpiry(thread, doc);
    // LangGraph gives every new checkpoint a new id (uuid6): one this process has not seen is
    // inserted. A known one is replaced, with no upsert (which could not take `matching`).
    const filter = { thread_id: threadId, ...matching({ ns, id: checkpoint.id }) };
    const replaced =
      thread.namespace(ns).has(checkpoint.id) &&
      (await this.store.checkpoints.replaceOne(filter, doc)).matchedCount > 0;
    if (!replaced) await this.store.checkpoints.insertOne(doc);

    this.remember(thread, ns, checkpoint, parent, values, lists);
    return checkpointConfig(threadId, ns, checkpoint.id);
  }

  /** What the process knows after a checkpoint is stored: its node, and its lists as stored values. */
  private remember(
    thread: ThreadState,
    ns: string,
    checkpoint: Checkpoint,
    parent: string | undefined,
    values: StoredValue[],
    lists: Array<[string, unknown[]]>,
  ): void {
    // A conversation's first checkpoint, written here: the namespace needs no read to be known (a
    // checkpoint another replica wrote beside it is read when asked for, as ensureNode does).
    if (parent === undefined && thread.namespace(ns).size === 0) thread.loadedNamespaces.add(ns);
    thread.addNode(ns, {
      id: checkpoint.id,
      parent,
      legacy: false,
      values: new Map(values.map((value) => [value.c, value])),
    });
    for (const [channel, list] of lists) {
      const home = { thread: thread.id, ns, checkpoint: checkpoint.id, channel };
      const version = checkpoint.channel_versions[channel] as number | string;
      thread.decoded.set(memoKey(ns, checkpoint.id, channel), { version, value: list.slice(), owner: home });
      this.store.identities.rememberList(list, home);
    }
    this.store.threads.touch(thread);
  }

  /** Stores a task's new messages, and hands back the insert of its writes document (none: no writes). */
  private async taskWrites(
    threadId: string,
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath?: string,
  ): Promise<(() => Promise<unknown>) | undefined> {
    const ns = configString(config, "checkpoint_ns") ?? "";
    const checkpointId = requiredString(config, "checkpoint_id");
    const thread = this.store.threads.get(threadId);
    const encoder = this.encoder(thread, ns);
    const stored = await Promise.all(
      writes.map(async ([channel, value], idx): Promise<StoredWrite> => {
        const [serdeType, bytes] = await encoder.encode(value);
        refuseOversized(bytes.byteLength);
        const { type, data } = pack(serdeType, bytes);
        return { i: writeIndex(channel, idx), c: channel, ...typeField(type), d: data };
      }),
    );
    if (stored.length === 0) return undefined;
    await this.insertMessages(thread, encoder);
    const doc = writesDocument(
      { threadId, ns, checkpointId, taskId, taskPath },
      stored,
      expiryAt(Date.now(), this.store.ttlMs),
    );
    return () => this.store.writes.insertOne(doc);
  }

  private encoder(thread: ThreadState, ns: string): ValueEncoder {
    const { serde, identities } = this.store;
    return new ValueEncoder({
      serde,
      identities,
      thread: thread.id,
      ns,
      stored: {
        hasMessage: (key) => thread.messages.has(key),
        chunkKey: (id) => thread.chunkKeys.get(id),
        message: (key) => thread.messages.get(key),
        lists: () => {
          const lists: KnownList[] = [];
          for (const resolved of thread.decoded.values()) {
            if (resolved.owner.ns === ns && Array.isArray(resolved.value)) {
              lists.push({ home: resolved.owner, list: resolved.value });
            }
          }
          return lists;
        },
      },
    });
  }

  /** How many leading items of the new list are the parent's, unchanged. */
  private async keptPrefix(
    thread: ThreadState,
    ns: string,
    parent: string,
    channel: string,
    value: unknown[],
  ): Promise<number> {
    const base = await this.values.valueAt(thread, ns, parent, channel);
    if (!base || !Array.isArray(base.value)) return 0;
    return sharedPrefixLength(base.value as unknown[], value);
  }

  /** Stores the encoder's new messages (before anything that refers to them). */
  private async insertMessages(thread: ThreadState, encoder: ValueEncoder): Promise<void> {
    for (const [key, message] of encoder.newPlainCopies) thread.addMessage(key, message, 0);
    const messages = encoder.newMessages;
    if (messages.size === 0) return;
    const docs = messageDocuments(thread.id, messages, expiryAt(Date.now(), this.store.ttlMs));
    try {
      await this.store.messages.insertMany(docs, { ordered: false });
    } catch (error) {
      // Already stored (another replica, or a retried step): the same key is the same content.
      if (!onlyDuplicates(error)) throw error;
    }
    for (const [key, { bytes, message }] of messages) thread.addMessage(key, message, bytes.byteLength);
  }

  /**
   * Pushes the whole conversation's expiry forward to the new checkpoint's when any of its
   * documents could expire within a TTL from now: a live conversation never loses an old message,
   * and the refresh runs at most once per half TTL per conversation.
   */
  private async refreshExpiry(thread: ThreadState, doc: CheckpointDoc): Promise<void> {
    const { ttlMs } = this.store;
    const expiry = doc.expire_at;
    if (!expiry || ttlMs === undefined) return;
    if (!refreshDue(thread.expiresNoSoonerThan, ttlMs, Date.now())) return;
    await Promise.all(
      perThread(this.store).map((collection) =>
        collection.updateMany({ thread_id: thread.id }, { $set: { [EXPIRY_FIELD]: expiry } }),
      ),
    );
    thread.expiresNoSoonerThan = expiry.getTime();
  }
}
