import type { BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  compareWritesSortKeys,
  maxChannelVersion,
  type PendingWrite,
  TASKS,
  WRITES_IDX_MAP,
  writesSortKey,
} from "@langchain/langgraph-checkpoint";
import { SwitchboardError } from "@switchboard/common";
import { type Binary, type Collection, type Db, type Filter, MongoBulkWriteError } from "mongodb";
import {
  bytesOf,
  type CheckpointDoc,
  createSaverIndexes,
  EXPIRY_FIELD,
  FORMAT,
  type MessageDoc,
  matching,
  pack,
  packBody,
  type SaverCollections,
  type StoredValue,
  type StoredWrite,
  unpack,
  unpackBodies,
  type WriteDoc,
  type WritesDoc,
} from "./saver-docs.js";
import {
  documentKey,
  type KnownList,
  messageFor,
  referencesIn,
  rememberList,
  rememberMessage,
  restoreRefs,
  ValueEncoder,
} from "./saver-refs.js";
import { type CheckpointNode, type Resolved, ThreadCache, type ThreadState } from "./saver-threads.js";

export interface MongoSaverOptions {
  db: Db;
  collections: SaverCollections;
  /** A conversation expires this long after its last activity; unset keeps it forever. */
  ttlSeconds?: number;
  /** Bytes of conversations kept decoded in memory (default 64 MB). */
  cacheBytes?: number;
}

/** MongoDB's limit for one document, with room for the keys around a stored value. */
export const MAX_VALUE_BYTES = 16 * 1024 * 1024 - 64 * 1024;

const ABSENT = Symbol("absent");
const utf8 = new TextDecoder();

/**
 * A LangGraph checkpoint saver on MongoDB whose storage grows with the conversation, not with its
 * square: a checkpoint stores only the channels that changed; a list that grew stores only what
 * it added; a message is stored once per conversation and referred to wherever it appears again.
 * Writes are ordered so that a crash leaves at most unreferenced messages, never a checkpoint
 * that refers to something missing. Reads documents written by upstream's MongoDBSaver, so
 * conversations stored before continue.
 */
export class MongoCheckpointSaver extends BaseCheckpointSaver {
  private readonly checkpoints: Collection<CheckpointDoc>;
  private readonly writes: Collection<WriteDoc>;
  private readonly messages: Collection<MessageDoc>;
  private readonly threads: ThreadCache;
  /** The last write queued per conversation (see serially). */
  private readonly writing = new Map<string, Promise<void>>();
  private readonly ttlMs?: number;

  constructor(private readonly options: MongoSaverOptions) {
    super();
    const { db, collections } = options;
    this.checkpoints = db.collection(collections.checkpoints);
    this.writes = db.collection(collections.writes);
    this.messages = db.collection(collections.messages);
    this.threads = new ThreadCache(options.cacheBytes ?? 64 * 1024 * 1024);
    if (options.ttlSeconds) this.ttlMs = options.ttlSeconds * 1000;
  }

  /** Creates the indexes every lookup uses (and the TTL indexes when retention is on). */
  async setup(): Promise<void> {
    await createSaverIndexes(this.options.db, this.options.collections, this.ttlMs !== undefined);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId = configString(config, "thread_id");
    if (threadId === undefined) return undefined;
    const ns = configString(config, "checkpoint_ns") ?? "";
    const checkpointId = configString(config, "checkpoint_id");
    const query = { thread_id: threadId, ...matching({ ns, id: checkpointId || undefined }) };
    const doc = await this.checkpoints.findOne(query, { sort: { checkpoint_id: -1 } });
    if (!doc) return undefined;
    if (!checkpointId && this.expired(doc)) {
      // Its TTL deletes it soon anyway; until then the conversation must not half-exist.
      await this.deleteThread(threadId);
      return undefined;
    }
    const [tuple] = await this.toTuples([doc]);
    return tuple;
  }

  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const { limit, before, filter } = options ?? {};
    const threadId = configString(config, "thread_id");
    const query: Filter<CheckpointDoc> = {
      ...(threadId ? { thread_id: threadId } : {}),
      ...matching({
        ns: configString(config, "checkpoint_ns"),
        id: configString(config, "checkpoint_id") || undefined,
        before: (before && configString(before, "checkpoint_id")) || undefined,
      }),
    };
    const filtered = filter !== undefined && Object.keys(filter).length > 0;
    let remaining = limit ?? Number.POSITIVE_INFINITY;
    if (remaining <= 0) return;
    const cursor = this.checkpoints.find(query, { sort: { checkpoint_id: -1 } });
    if (limit !== undefined && !filtered) cursor.limit(limit);
    // Decoded a batch at a time, so each batch's pending writes take one query.
    const batchSize = Math.min(50, remaining);
    let batch: CheckpointDoc[] = [];
    for await (const doc of cursor) {
      batch.push(doc);
      if (batch.length < batchSize) continue;
      for (const tuple of await this.toTuples(batch)) {
        if (filtered && !matches(tuple.metadata, filter)) continue;
        yield tuple;
        if (--remaining <= 0) return;
      }
      batch = [];
    }
    for (const tuple of await this.toTuples(batch)) {
      if (filtered && !matches(tuple.metadata, filter)) continue;
      yield tuple;
      if (--remaining <= 0) return;
    }
  }

  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const threadId = requiredString(config, "thread_id");
    return this.serially(threadId, () =>
      this.putCheckpoint(threadId, config, checkpoint, metadata, newVersions),
    );
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
    const thread = this.threads.get(threadId);
    if (parent !== undefined) await this.ensureNode(thread, ns, parent);

    const encoder = this.encoder(thread, ns);
    const values: StoredValue[] = [];
    const lists: Array<[string, unknown[]]> = [];
    for (const channel of Object.keys(newVersions)) {
      const version = checkpoint.channel_versions[channel] ?? (newVersions[channel] as number | string);
      const value = checkpoint.channel_values[channel];
      // Absent means emptied; a channel holding `undefined` is stored as such (LangGraph keeps both apart).
      if (!(channel in checkpoint.channel_values)) {
        values.push({ c: channel, v: version, x: true });
        continue;
      }
      const kept =
        parent !== undefined && Array.isArray(value)
          ? await this.keptPrefix(thread, ns, parent, channel, value)
          : 0;
      const [type, bytes] = await encoder.encode(kept > 0 ? (value as unknown[]).slice(kept) : value);
      refuseOversized(bytes.byteLength);
      const packed = pack(type, bytes);
      const stored: StoredValue = { c: channel, v: version, ...typeField(packed.type), d: packed.data };
      if (kept > 0) stored.k = kept;
      values.push(stored);
      if (Array.isArray(value)) lists.push([channel, value]);
    }
    const { channel_values: _values, ...rest } = checkpoint;
    const { id: _id, ...withoutId } = rest;
    const [[type, checkpointBytes], [metadataType, metadataBytes]] = await Promise.all([
      this.serde.dumpsTyped(withoutId),
      this.serde.dumpsTyped(metadata),
    ]);
    if (type !== metadataType) throw new Error("Mismatched checkpoint and metadata types.");

    refuseOversized(
      values.reduce((sum, value) => sum + (value.d?.length() ?? 0), checkpointBytes.byteLength),
    );
    // Messages first: a crash between the two leaves unreferenced messages, never a dangling ref.
    await this.insertMessages(thread, encoder);
    const doc: CheckpointDoc = {
      thread_id: threadId,
      checkpoint_ns: ns,
      checkpoint_id: checkpoint.id,
      format: FORMAT,
      ...(type === "json" ? {} : { type }),
      checkpoint: packBody(checkpointBytes),
      metadata: packBody(metadataBytes),
      values,
    };
    if (parent !== undefined) doc.parent_checkpoint_id = parent;
    await this.stamp(thread, doc);
    // LangGraph gives every new checkpoint a new id (uuid6): one this process has not seen is
    // inserted. A known one is replaced, with no upsert (which could not take `matching`).
    const filter = { thread_id: threadId, ...matching({ ns, id: checkpoint.id }) };
    const replaced =
      thread.namespace(ns).has(checkpoint.id) &&
      (await this.checkpoints.replaceOne(filter, doc)).matchedCount > 0;
    if (!replaced) await this.checkpoints.insertOne(doc);

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
      const home = { thread: threadId, ns, checkpoint: checkpoint.id, channel };
      const version = checkpoint.channel_versions[channel] as number | string;
      thread.decoded.set(memoKey(ns, checkpoint.id, channel), { version, value: list.slice(), owner: home });
      rememberList(list, home);
    }
    this.threads.touch(thread);
    return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  async putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath?: string,
  ): Promise<void> {
    const threadId = requiredString(config, "thread_id");
    return this.serially(threadId, () => this.putTaskWrites(threadId, config, writes, taskId, taskPath));
  }

  private async putTaskWrites(
    threadId: string,
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    taskPath?: string,
  ): Promise<void> {
    const ns = configString(config, "checkpoint_ns") ?? "";
    const checkpointId = requiredString(config, "checkpoint_id");
    const thread = this.threads.get(threadId);
    const encoder = this.encoder(thread, ns);
    const stored = await Promise.all(
      writes.map(async ([channel, value], idx): Promise<StoredWrite> => {
        const [serdeType, bytes] = await encoder.encode(value);
        refuseOversized(bytes.byteLength);
        const { type, data } = pack(serdeType, bytes);
        return { i: WRITES_IDX_MAP[channel] ?? idx, c: channel, ...typeField(type), d: data };
      }),
    );
    if (stored.length === 0) return;
    await this.insertMessages(thread, encoder);
    const doc: WritesDoc = {
      thread_id: threadId,
      checkpoint_ns: ns,
      checkpoint_id: checkpointId,
      task_id: taskId,
      task_path: taskPath ?? "",
      writes: stored,
    };
    const expiry = this.expiry();
    if (expiry) doc.expire_at = expiry;
    await this.writes.insertOne(doc);
  }

  /**
   * Runs one conversation's writes one after another in this process, as LangGraph issues them
   * (a step's writes and the next checkpoint may otherwise overlap): each then finds the messages
   * the previous stored, so a message is inserted once and a chunk's plain copy is recognized.
   */
  private async serially<T>(threadId: string, work: () => Promise<T>): Promise<T> {
    const result = (this.writing.get(threadId) ?? Promise.resolve()).then(work);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.writing.set(threadId, settled);
    try {
      return await result;
    } finally {
      if (this.writing.get(threadId) === settled) this.writing.delete(threadId);
    }
  }

  async deleteThread(threadId: string): Promise<void> {
    if (typeof threadId !== "string") throw new Error("Invalid threadId: expected a string");
    await Promise.all(this.perThread().map((collection) => collection.deleteMany({ thread_id: threadId })));
    // Dropped after the deletes: a read racing them cannot leave the cache holding the old tree.
    this.threads.delete(threadId);
  }

  /** The three collections, as far as what every document has: its conversation. */
  private perThread(): Array<Collection<{ thread_id: string }>> {
    return [this.checkpoints, this.writes, this.messages] as unknown as Array<
      Collection<{ thread_id: string }>
    >;
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
    const thread = this.threads.get(thread_id);
    this.learn(thread, doc);
    const ours = doc.format !== undefined;
    const bodies = ours
      ? unpackBodies(doc)
      : { checkpoint: bytesOf(doc.checkpoint), metadata: bytesOf(doc.metadata) };
    const type = doc.type ?? "json";
    const [checkpoint, metadata] = await Promise.all([
      this.serde.loadsTyped(type, bodies.checkpoint) as Promise<Checkpoint>,
      this.serde.loadsTyped(type, bodies.metadata) as Promise<CheckpointMetadata>,
    ]);
    if (ours) {
      checkpoint.id = checkpoint_id;
      checkpoint.channel_values = {};
      for (const [channel, version] of Object.entries(checkpoint.channel_versions)) {
        const resolved = await this.valueAt(thread, ns, checkpoint_id, channel);
        if (resolved && resolved.version === version && resolved.value !== ABSENT) {
          checkpoint.channel_values[channel] = handOut(resolved);
        }
      }
    }
    const pendingWrites = await this.decodeWrites(thread, ns, (await writes).get(docKey(doc)) ?? []);
    if (checkpoint.v < 4 && doc.parent_checkpoint_id !== undefined) {
      await this.migratePendingSends(thread, checkpoint, doc);
    }
    const tuple: CheckpointTuple = {
      config: { configurable: { thread_id, checkpoint_ns: ns, checkpoint_id } },
      checkpoint,
      metadata,
      pendingWrites,
    };
    if (doc.parent_checkpoint_id !== undefined && doc.parent_checkpoint_id !== null) {
      tuple.parentConfig = {
        configurable: { thread_id, checkpoint_ns: ns, checkpoint_id: doc.parent_checkpoint_id },
      };
    }
    this.threads.touch(thread);
    return tuple;
  }

  /** The pending writes of each document's checkpoint, in the order LangGraph applies them. */
  private async writesOf(docs: CheckpointDoc[]): Promise<Map<string, WriteDoc[]>> {
    const byCheckpoint = new Map<string, WriteDoc[]>();
    if (docs.length === 0) return byCheckpoint;
    // A page of checkpoints is a run of consecutive ids, so a range per conversation finds its
    // writes (listing across conversations, perhaps also a few of checkpoints off the page, left aside).
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
    const query = $or.length === 1 ? ($or[0] as Filter<WriteDoc>) : { $or };
    // In the order they were stored: a slot keeps its first regular write and its last special one.
    const found = await this.writes.find(query, { sort: { _id: 1 } }).toArray();
    for (const write of found) {
      const key = docKey(write);
      byCheckpoint.set(key, [...(byCheckpoint.get(key) ?? []), write]);
    }
    return byCheckpoint;
  }

  private async decodeWrites(
    thread: ThreadState,
    ns: string,
    docs: WriteDoc[],
  ): Promise<CheckpointPendingWrite[]> {
    const slots = new Map<string, { taskId: string; path: string; write: StoredWrite; upstream: boolean }>();
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
    const ordered = [...slots.values()].sort((a, b) =>
      compareWritesSortKeys(
        writesSortKey(a.path, a.taskId, a.write.i),
        writesSortKey(b.path, b.taskId, b.write.i),
      ),
    );
    return Promise.all(
      ordered.map(async ({ taskId, write, upstream }): Promise<CheckpointPendingWrite> => {
        const value = upstream
          ? await this.serde.loadsTyped(write.t ?? "json", bytesOf(write.d))
          : await this.decode(thread, ns, write.t ?? "json", write.d);
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
    const parentWrites = await this.writes
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
    const versions = Object.values(checkpoint.channel_versions);
    checkpoint.channel_versions[TASKS] =
      versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
  }

  /**
   * A channel's value at a checkpoint: the nearest checkpoint on its ancestor path that stored
   * the channel, with the lists it extends applied oldest first. Forks stay apart, since only
   * the path to the root is followed.
   */
  private async valueAt(
    thread: ThreadState,
    ns: string,
    checkpointId: string,
    channel: string,
  ): Promise<Resolved | undefined> {
    await this.ensureNode(thread, ns, checkpointId);
    const nodes = thread.namespace(ns);
    const chain: Array<{ node: CheckpointNode; value: StoredValue }> = [];
    let base: Resolved | undefined;
    for (let node = nodes.get(checkpointId); node; node = node.parent ? nodes.get(node.parent) : undefined) {
      const key = memoKey(ns, node.id, channel);
      const memo = thread.decoded.get(key) ?? thread.anchors.get(key);
      if (memo) {
        base = memo;
        break;
      }
      if (node.legacy) {
        base = await this.legacyValue(thread, ns, node, channel);
        break;
      }
      const value = node.values.get(channel);
      if (!value) continue;
      chain.push({ node, value });
      if (value.k === undefined) break;
    }
    if (chain.length === 0) return base;
    await this.loadMessagesOf(
      thread,
      chain.filter(({ node, value }) => value.d !== undefined && node.decoded?.get(channel) === undefined),
    );

    let current = base;
    let list: unknown[] | undefined;
    for (let i = chain.length - 1; i >= 0; i--) {
      const { node, value } = chain[i] as (typeof chain)[number];
      const owner = { thread: thread.id, ns, checkpoint: node.id, channel };
      if (value.x) {
        current = { version: value.v, value: ABSENT, owner };
        list = undefined;
        continue;
      }
      // Immutable once stored: each piece is decoded once, however many checkpoints share it.
      node.decoded ??= new Map();
      let decoded = node.decoded.get(channel);
      if (decoded === undefined) {
        decoded = await this.decode(thread, ns, value.t ?? "json", value.d as Binary);
        node.decoded.set(channel, decoded);
      }
      if (value.k === undefined) {
        list = undefined;
        current = { version: value.v, value: decoded, owner };
        continue;
      }
      if (!list) {
        if (!Array.isArray(current?.value)) {
          throw new SwitchboardError(
            "checkpointer.corrupt",
            "system",
            `Checkpoint ${node.id} of conversation ${thread.id} extends a list its ancestors do not store (channel ${channel}).`,
          );
        }
        list = (current.value as unknown[]).slice();
      }
      // Working on a private copy, an append (the usual step) costs only the new items.
      list.length = value.k;
      for (const item of decoded as unknown[]) list.push(item);
      current = { version: value.v, value: list, owner };
      if (i > 0 && i % ANCHOR_EVERY === 0) {
        thread.anchors.set(memoKey(ns, node.id, channel), { ...current, value: list.slice() });
      }
    }
    const head = chain[0] as (typeof chain)[number];
    if (current) thread.decoded.set(memoKey(ns, head.node.id, channel), current);
    return current;
  }

  private async legacyValue(
    thread: ThreadState,
    ns: string,
    node: CheckpointNode,
    channel: string,
  ): Promise<Resolved | undefined> {
    const doc = await this.checkpoints.findOne({ thread_id: thread.id, ...matching({ ns, id: node.id }) });
    if (!doc) return undefined;
    const checkpoint = (await this.serde.loadsTyped(
      doc.type ?? "json",
      bytesOf(doc.checkpoint),
    )) as Checkpoint;
    let found: Resolved | undefined;
    for (const [name, value] of Object.entries(checkpoint.channel_values ?? {})) {
      const version = checkpoint.channel_versions[name];
      if (version === undefined) continue;
      const resolved = {
        version,
        value,
        owner: { thread: thread.id, ns, checkpoint: node.id, channel: name },
      };
      thread.decoded.set(memoKey(ns, node.id, name), resolved);
      if (name === channel) found = resolved;
    }
    return found;
  }

  /** A stored value back as LangGraph wrote it, with its messages and lists in place. */
  private async decode(thread: ThreadState, ns: string, storedType: string, data: Binary): Promise<unknown> {
    const { type, bytes } = unpack(storedType, data);
    if (type !== "json") return this.serde.loadsTyped(type, bytes);
    const text = utf8.decode(bytes);
    const refs = referencesIn(text);
    await this.loadMessages(thread, refs.messages);
    const lists = new Map<string, unknown>();
    for (const [channel, checkpoint] of refs.lists) {
      const resolved = await this.valueAt(thread, ns, checkpoint, channel);
      if (resolved && resolved.value !== ABSENT)
        lists.set(`${channel}\u0000${checkpoint}`, handOut(resolved));
    }
    // Values made only of references and plain data need no reviver (the costly part).
    const parsed = text.includes('"lc"') ? await this.serde.loadsTyped("json", text) : JSON.parse(text);
    return restoreRefs(
      parsed,
      (key) => {
        const message = thread.messages.get(key);
        if (!message) throw missing(thread.id, `message ${key}`);
        return message;
      },
      (channel, checkpoint) => lists.get(`${channel}\u0000${checkpoint}`),
    );
  }

  /** The messages a run of stored values refers to, in a few queries rather than one per value. */
  private async loadMessagesOf(thread: ThreadState, stored: Array<{ value: StoredValue }>): Promise<void> {
    const keys: string[] = [];
    for (const { value } of stored) {
      const { type, bytes } = unpack(value.t ?? "json", value.d as Binary);
      if (type === "json") keys.push(...referencesIn(utf8.decode(bytes)).messages);
    }
    await this.loadMessages(thread, keys);
  }

  private async loadMessages(thread: ThreadState, keys: string[]): Promise<void> {
    const wanted = [...new Set(keys.filter((key) => !thread.messages.has(key)))];
    if (wanted.length === 0) return;
    const docKeys = [...new Set(wanted.map(documentKey).filter((key) => !thread.messages.has(key)))];
    const docs: MessageDoc[] = [];
    for (let start = 0; start < docKeys.length; start += MESSAGES_PER_QUERY) {
      const batch = docKeys.slice(start, start + MESSAGES_PER_QUERY);
      docs.push(
        ...(await this.messages.find({ thread_id: thread.id, ...matching({ keys: batch }) }).toArray()),
      );
    }
    await Promise.all(
      docs.map(async (doc) => {
        const { type, bytes } = unpack(doc.type, doc.body);
        const message = (await this.serde.loadsTyped(type, bytes)) as BaseMessage;
        rememberMessage(message, thread.id, doc.key);
        thread.addMessage(doc.key, message, doc.body.length());
      }),
    );
    for (const key of wanted) {
      const stored = thread.messages.get(documentKey(key));
      if (!stored) throw missing(thread.id, `message ${key}`);
      if (key === documentKey(key)) continue;
      const message = messageFor(key, stored);
      rememberMessage(message, thread.id, key);
      thread.addMessage(key, message, 0);
    }
  }

  /**
   * Makes sure the checkpoint and its ancestors are known: a namespace is read whole once, and
   * again only when a checkpoint turns up whose parent this process has not seen (another
   * replica wrote it).
   */
  private async ensureNode(thread: ThreadState, ns: string, checkpointId: string): Promise<void> {
    if (thread.loadedNamespaces.has(ns) && thread.namespace(ns).has(checkpointId)) return;
    const docs = await this.checkpoints
      .find(
        { thread_id: thread.id, ...matching({ ns }) },
        { projection: { checkpoint_ns: 1, checkpoint_id: 1, parent_checkpoint_id: 1, format: 1, values: 1 } },
      )
      .toArray();
    for (const doc of docs) this.learn(thread, doc as CheckpointDoc);
    thread.loadedNamespaces.add(ns);
  }

  private learn(thread: ThreadState, doc: CheckpointDoc): void {
    const nodes = thread.namespace(doc.checkpoint_ns);
    if (nodes.has(doc.checkpoint_id)) return;
    const parent = doc.parent_checkpoint_id;
    if (parent !== undefined && parent !== null && !nodes.has(parent)) {
      thread.loadedNamespaces.delete(doc.checkpoint_ns);
    }
    thread.addNode(doc.checkpoint_ns, {
      id: doc.checkpoint_id,
      parent: doc.parent_checkpoint_id ?? undefined,
      legacy: doc.format === undefined,
      values: new Map((doc.values ?? []).map((value) => [value.c, value])),
    });
  }

  private encoder(thread: ThreadState, ns: string): ValueEncoder {
    return new ValueEncoder(this.serde, thread.id, ns, {
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
    });
  }

  private async keptPrefix(
    thread: ThreadState,
    ns: string,
    parent: string,
    channel: string,
    value: unknown[],
  ): Promise<number> {
    const base = await this.valueAt(thread, ns, parent, channel);
    if (!base || !Array.isArray(base.value)) return 0;
    const previous = base.value as unknown[];
    const limit = Math.min(previous.length, value.length);
    let kept = 0;
    while (kept < limit && previous[kept] === value[kept]) kept++;
    return kept;
  }

  /** Stores the encoder's new messages (before anything that refers to them). */
  private async insertMessages(thread: ThreadState, encoder: ValueEncoder): Promise<void> {
    for (const [key, message] of encoder.newPlainCopies) thread.addMessage(key, message, 0);
    const messages = encoder.newMessages;
    if (messages.size === 0) return;
    const expiry = this.expiry();
    const docs: MessageDoc[] = [];
    for (const [key, { type, bytes }] of messages) {
      refuseOversized(bytes.byteLength);
      const packed = pack(type, bytes);
      const doc: MessageDoc = { thread_id: thread.id, key, type: packed.type, body: packed.data };
      if (expiry) doc.expire_at = expiry;
      docs.push(doc);
    }
    try {
      await this.messages.insertMany(docs, { ordered: false });
    } catch (error) {
      // Already stored (another replica, or a retried step): the same key is the same content.
      const duplicatesOnly =
        error instanceof MongoBulkWriteError &&
        (Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors]).every(
          (writeError) => writeError.code === 11000,
        );
      if (!duplicatesOnly) throw error;
    }
    for (const [key, { bytes, message }] of messages) thread.addMessage(key, message, bytes.byteLength);
  }

  /** When documents written now expire: a TTL past the last activity, plus slack (see stamp). */
  private expiry(): Date | undefined {
    return this.ttlMs === undefined ? undefined : new Date(Date.now() + this.ttlMs * 1.5);
  }

  /**
   * Sets a new checkpoint's expiry, and pushes the whole conversation's expiry forward when any
   * of its documents could expire within a TTL from now: a live conversation never loses an old
   * message, and the refresh runs at most once per half TTL per conversation.
   */
  private async stamp(thread: ThreadState, doc: CheckpointDoc): Promise<void> {
    const expiry = this.expiry();
    if (!expiry || this.ttlMs === undefined) return;
    doc.expire_at = expiry;
    if (thread.expiresNoSoonerThan !== undefined && thread.expiresNoSoonerThan > Date.now() + this.ttlMs)
      return;
    await Promise.all(
      this.perThread().map((collection) =>
        collection.updateMany({ thread_id: thread.id }, { $set: { [EXPIRY_FIELD]: expiry } }),
      ),
    );
    thread.expiresNoSoonerThan = expiry.getTime();
  }

  /** Past its TTL since the last activity (the latest checkpoint's write), whatever the TTL monitor did. */
  private expired(doc: CheckpointDoc): boolean {
    if (this.ttlMs === undefined || !doc.expire_at) return false;
    return doc.expire_at.getTime() - this.ttlMs * 0.5 < Date.now();
  }
}

function configString(config: RunnableConfig, name: string): string | undefined {
  const value = config.configurable?.[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new Error(`Invalid configurable.${name}: expected a string`);
  return value;
}

function requiredString(config: RunnableConfig, name: string): string {
  const value = configString(config, name);
  if (value === undefined) throw new Error(`Invalid configurable.${name}: expected a string`);
  return value;
}

function matches(metadata: CheckpointMetadata | undefined, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(
    ([key, value]) => (metadata as Record<string, unknown> | undefined)?.[key] === value,
  );
}

/** How many stored steps apart a long walk leaves a resolved list behind (see ThreadState.anchors). */
const ANCHOR_EVERY = 32;

/** Message keys per `$in` query when a conversation's messages are read back. */
const MESSAGES_PER_QUERY = 1000;

/** A stored value's `t`, left out for plain "json" (most values). */
function typeField(type: string): { t?: string } {
  return type === "json" ? {} : { t: type };
}

function docKey(doc: { thread_id: string; checkpoint_ns: string; checkpoint_id: string }): string {
  return `${doc.thread_id}\u0000${doc.checkpoint_ns}\u0000${doc.checkpoint_id}`;
}

function memoKey(ns: string, checkpoint: string, channel: string): string {
  return `${ns}\u0000${checkpoint}\u0000${channel}`;
}

/** Lists go out as copies (LangGraph may hold them), each remembered as the stored list it is. */
function handOut(resolved: Resolved): unknown {
  if (!Array.isArray(resolved.value)) return resolved.value;
  const copy = resolved.value.slice();
  rememberList(copy, resolved.owner);
  return copy;
}

function missing(threadId: string, what: string): SwitchboardError {
  return new SwitchboardError(
    "checkpointer.corrupt",
    "system",
    `Conversation ${threadId} refers to ${what}, which is not stored (was it deleted by hand?).`,
  );
}

/** A single value past MongoDB's document limit is refused before anything is written. */
function refuseOversized(bytes: number): void {
  if (bytes <= MAX_VALUE_BYTES) return;
  throw new SwitchboardError(
    "checkpointer.too-large",
    "user",
    "This turn holds a single value past MongoDB's 16 MB document limit, so it was not saved. " +
      "Ask for less data at once (or start a new conversation); the conversation so far is kept.",
  );
}
