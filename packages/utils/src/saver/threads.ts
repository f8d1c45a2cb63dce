// The in-process tree of each conversation's checkpoints, its messages and decoded values, under a byte budget.
import { type BaseMessage, BaseMessageChunk } from "@langchain/core/messages";
import { LRUCache } from "lru-cache";
import type { CheckpointDoc, StoredValue } from "./documents.js";
import type { ListHome } from "./identity.js";
import { ownBytes } from "./packing.js";

/** What a conversation's state costs the cache before it holds anything (its maps, the decoded-values cache). */
const THREAD_BYTES = 3_000;
/**
 * What a decoded message costs the cache per byte of its serialized form: LangChain's message
 * objects keep their constructor's fields beside their own (lc_kwargs), and the decoded lists that
 * hold them come on top (about three, measured on a tool-calling turn's messages).
 */
const DECODED_PER_SERIALIZED_BYTE = 3;
/** What a checkpoint node costs the cache besides its values' bytes (its ids, maps and entries). */
const NODE_BYTES = 200;

/** What the saver knows of one checkpoint without reading its document again. */
export interface CheckpointNode {
  id: string;
  parent?: string;
  /** An upstream MongoDBSaver document: every channel value is inside its own `checkpoint`. */
  legacy: boolean;
  /** Channel values this checkpoint stored (ours only). */
  values: Map<string, StoredValue>;
  /** Those values decoded (for a list that extends its parent's: the added items). */
  decoded?: Map<string, unknown>;
}

/** A resolved channel value and the version it had where it was stored. */
export interface Resolved {
  version: number | string;
  value: unknown;
  /** The checkpoint that stored it. */
  owner: Omit<ListHome, "length">;
}

/**
 * One conversation's checkpoint tree and messages, as far as this process has seen them. Every
 * entry is an immutable fact (a checkpoint, a message body under its content hash), so a cached
 * entry is never stale; what is missing is read from MongoDB.
 */
export class ThreadState {
  /** Checkpoint nodes per namespace, and the namespaces read completely. */
  readonly nodes = new Map<string, Map<string, CheckpointNode>>();
  readonly loadedNamespaces = new Set<string>();
  readonly messages = new Map<string, BaseMessage>();
  /** The key of each message chunk in `messages`, by message id (see refs.ts PLAIN_COPY). */
  readonly chunkKeys = new Map<string, string>();
  /** Decoded channel values by `<ns> <checkpoint> <channel>`, for the few latest only. */
  readonly decoded = new LRUCache<string, Resolved>({ max: 16 });
  /**
   * Lists resolved at every ANCHOR_EVERY-th stored step of a long walk, so that reading older
   * checkpoints (list() goes newest first) walks a few steps instead of back to the start. Made
   * on the first long walk: most conversations never take one, and an empty cache costs kilobytes.
   */
  private anchors: LRUCache<string, Resolved> | undefined;
  /** Approximate bytes held, for the cache's size bound. */
  bytes = THREAD_BYTES;
  /** No document of this conversation expires before this time (ms), as far as this process knows. */
  expiresNoSoonerThan?: number;

  constructor(readonly id: string) {}

  namespace(ns: string): Map<string, CheckpointNode> {
    let nodes = this.nodes.get(ns);
    if (!nodes) {
      nodes = new Map();
      this.nodes.set(ns, nodes);
    }
    return nodes;
  }

  anchorAt(key: string): Resolved | undefined {
    return this.anchors?.get(key);
  }

  setAnchor(key: string, resolved: Resolved): void {
    this.anchors ??= new LRUCache<string, Resolved>({ max: 64 });
    this.anchors.set(key, resolved);
  }

  /** Keeps a checkpoint node, its values' bytes in buffers of their own (counted in the budget). */
  addNode(ns: string, node: CheckpointNode): void {
    const nodes = this.namespace(ns);
    // A checkpoint stored again (a retried step) replaces its node, counted once.
    const counted = nodes.has(node.id);
    if (!counted) this.bytes += NODE_BYTES;
    for (const value of node.values.values()) {
      if (!value.d) continue;
      const d = ownBytes(value.d);
      node.values.set(value.c, { ...value, d });
      if (!counted) this.bytes += d.length();
    }
    nodes.set(node.id, node);
  }

  /** Keeps a decoded message; `bytes` is its serialized size (0 for another key of one already kept). */
  addMessage(key: string, message: BaseMessage, bytes: number): void {
    if (!this.messages.has(key)) this.bytes += bytes * DECODED_PER_SERIALIZED_BYTE;
    this.messages.set(key, message);
    if (BaseMessageChunk.isInstance(message)) this.chunkKeys.set(String(message.id), key);
  }
}

/** The key of a decoded value in ThreadState.decoded and .anchors. */
export function memoKey(ns: string, checkpoint: string, channel: string): string {
  return `${ns}\u0000${checkpoint}\u0000${channel}`;
}

/** What a checkpoint document tells of its place in the tree (projected documents will do). */
export function nodeOf(
  doc: Pick<CheckpointDoc, "checkpoint_id" | "parent_checkpoint_id" | "format" | "values">,
): CheckpointNode {
  return {
    id: doc.checkpoint_id,
    parent: doc.parent_checkpoint_id ?? undefined,
    legacy: doc.format === undefined,
    values: new Map((doc.values ?? []).map((value) => [value.c, value])),
  };
}

/**
 * Adds a document's checkpoint to the tree. One whose parent this process has not seen was
 * written by another replica: its namespace is marked for a fresh read (see ensureNode).
 */
export function learn(thread: ThreadState, doc: CheckpointDoc): void {
  const nodes = thread.namespace(doc.checkpoint_ns);
  if (nodes.has(doc.checkpoint_id)) return;
  const parent = doc.parent_checkpoint_id;
  if (parent !== undefined && parent !== null && !nodes.has(parent)) {
    thread.loadedNamespaces.delete(doc.checkpoint_ns);
  }
  thread.addNode(doc.checkpoint_ns, nodeOf(doc));
}

/** The conversations a process works on, least recently used dropped first past a byte budget. */
export class ThreadCache {
  private readonly threads: LRUCache<string, ThreadState>;

  constructor(maxBytes: number) {
    this.threads = new LRUCache<string, ThreadState>({
      maxSize: maxBytes,
      sizeCalculation: (thread) => Math.max(1, thread.bytes),
    });
  }

  get(threadId: string): ThreadState {
    let thread = this.threads.get(threadId);
    if (!thread) {
      thread = new ThreadState(threadId);
      this.threads.set(threadId, thread);
    }
    return thread;
  }

  /** Re-measures a thread after it grew (and marks it the most recently used). */
  touch(thread: ThreadState): void {
    if (this.threads.peek(thread.id) !== thread) return;
    // lru-cache measures an entry only when it is set to a new value: setting the same object
    // again kept its first size (1), so the byte budget never dropped a conversation.
    this.threads.delete(thread.id);
    this.threads.set(thread.id, thread);
  }

  delete(threadId: string): void {
    this.threads.delete(threadId);
  }
}
