// Reading channel values: a conversation's tree, the value at a checkpoint, references decoded.
import type { BaseMessage } from "@langchain/core/messages";
import type { Checkpoint } from "@langchain/langgraph-checkpoint";
import type { Binary } from "mongodb";
import { ABSENT, anchorDue, applyStoredStep, type Fold, type StoredStep, storedChain } from "./ancestry.js";
import type { CheckpointDoc, MessageDoc, StoredValue } from "./documents.js";
import { missing } from "./limits.js";
import { bytesOf, unpack } from "./packing.js";
import { matching } from "./queries.js";
import { documentKey, messageFor, referencesIn, restoreRefs } from "./refs.js";
import type { SaverStore } from "./store.js";
import { type CheckpointNode, learn, memoKey, type Resolved, type ThreadState } from "./threads.js";

/** Message keys per `$in` query when a conversation's messages are read back. */
const MESSAGES_PER_QUERY = 1000;

const utf8 = new TextDecoder();

/** A conversation's channel values as this saver stored them, read through its cache. */
export class ChannelValues {
  constructor(private readonly store: SaverStore) {}

  /**
   * Makes sure the checkpoint and its ancestors are known: a namespace is read whole once, and
   * again only when a checkpoint turns up whose parent this process has not seen (another
   * replica wrote it).
   */
  async ensureNode(thread: ThreadState, ns: string, checkpointId: string): Promise<void> {
    if (thread.loadedNamespaces.has(ns) && thread.namespace(ns).has(checkpointId)) return;
    const docs = await this.store.checkpoints
      .find(
        { thread_id: thread.id, ...matching({ ns }) },
        { projection: { checkpoint_ns: 1, checkpoint_id: 1, parent_checkpoint_id: 1, format: 1, values: 1 } },
      )
      .toArray();
    for (const doc of docs) learn(thread, doc as CheckpointDoc);
    thread.loadedNamespaces.add(ns);
  }

  /**
   * A channel's value at a checkpoint: the nearest checkpoint on its ancestor path that stored
   * the channel, with the lists it extends applied oldest first (see storedChain).
   */
  async valueAt(
    thread: ThreadState,
    ns: string,
    checkpointId: string,
    channel: string,
  ): Promise<Resolved | undefined> {
    await this.ensureNode(thread, ns, checkpointId);
    const { steps, base, legacy } = storedChain(thread, ns, checkpointId, channel);
    const start = legacy ? await this.legacyValue(thread, ns, legacy, channel) : base;
    if (steps.length === 0) return start;
    await this.loadMessagesOf(
      thread,
      steps.filter(({ node, value }) => value.d !== undefined && node.decoded?.get(channel) === undefined),
    );

    let fold: Fold = { current: start };
    for (let i = steps.length - 1; i >= 0; i--) {
      const step = steps[i] as StoredStep;
      const owner = { thread: thread.id, ns, checkpoint: step.node.id, channel };
      const decoded = step.value.x ? undefined : await this.piece(thread, ns, step, channel);
      fold = applyStoredStep(fold, step.value, decoded, owner);
      if (fold.list && fold.current && anchorDue(i)) {
        thread.setAnchor(memoKey(ns, step.node.id, channel), { ...fold.current, value: fold.list.slice() });
      }
    }
    const head = steps[0] as StoredStep;
    if (fold.current) thread.decoded.set(memoKey(ns, head.node.id, channel), fold.current);
    return fold.current;
  }

  /** One stored piece decoded: immutable once stored, so decoded once however many checkpoints share it. */
  private async piece(
    thread: ThreadState,
    ns: string,
    { node, value }: StoredStep,
    channel: string,
  ): Promise<unknown> {
    node.decoded ??= new Map();
    let decoded = node.decoded.get(channel);
    if (decoded === undefined) {
      decoded = await this.decode(thread, ns, value.t ?? "json", value.d as Binary);
      node.decoded.set(channel, decoded);
    }
    return decoded;
  }

  /** An upstream document's channel values, every one remembered (they sit in one body). */
  private async legacyValue(
    thread: ThreadState,
    ns: string,
    node: CheckpointNode,
    channel: string,
  ): Promise<Resolved | undefined> {
    const doc = await this.store.checkpoints.findOne({
      thread_id: thread.id,
      ...matching({ ns, id: node.id }),
    });
    if (!doc) return undefined;
    const checkpoint = (await this.store.serde.loadsTyped(
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
  async decode(thread: ThreadState, ns: string, storedType: string, data: Binary): Promise<unknown> {
    const { type, bytes } = unpack(storedType, data);
    if (type !== "json") return this.store.serde.loadsTyped(type, bytes);
    const text = utf8.decode(bytes);
    const refs = referencesIn(text);
    await this.loadMessages(thread, refs.messages);
    const lists = new Map<string, unknown>();
    for (const [channel, checkpoint] of refs.lists) {
      const resolved = await this.valueAt(thread, ns, checkpoint, channel);
      if (resolved && resolved.value !== ABSENT)
        lists.set(`${channel}\u0000${checkpoint}`, this.handOut(resolved));
    }
    // Values made only of references and plain data need no reviver (the costly part).
    const parsed = text.includes('"lc"') ? await this.store.serde.loadsTyped("json", text) : JSON.parse(text);
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

  /** Lists go out as copies (LangGraph may hold them), each remembered as the stored list it is. */
  handOut(resolved: Resolved): unknown {
    if (!Array.isArray(resolved.value)) return resolved.value;
    const copy = resolved.value.slice();
    this.store.identities.rememberList(copy, resolved.owner);
    return copy;
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
        ...(await this.store.messages.find({ thread_id: thread.id, ...matching({ keys: batch }) }).toArray()),
      );
    }
    const { serde, identities } = this.store;
    await Promise.all(
      docs.map(async (doc) => {
        const { type, bytes } = unpack(doc.type, doc.body);
        const message = (await serde.loadsTyped(type, bytes)) as BaseMessage;
        identities.rememberMessage(message, thread.id, doc.key);
        thread.addMessage(doc.key, message, bytes.byteLength);
      }),
    );
    for (const key of wanted) {
      const stored = thread.messages.get(documentKey(key));
      if (!stored) throw missing(thread.id, `message ${key}`);
      if (key === documentKey(key)) continue;
      const message = messageFor(key, stored);
      identities.rememberMessage(message, thread.id, key);
      thread.addMessage(key, message, 0);
    }
  }
}
