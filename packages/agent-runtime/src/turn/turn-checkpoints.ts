import { setImmediate as afterPendingWork } from "node:timers/promises";
import type { RunnableConfig } from "@langchain/core/runnables";
import { type BaseCheckpointSaver, type CheckpointTuple, INTERRUPT } from "@langchain/langgraph";
import type { PendingInterrupt } from "./interrupts.js";

/**
 * The process's checkpoint saver as the agent graph sees it, so that a turn reads its thread's
 * latest checkpoint once: the executor reads it to tell a new message from the answer to a pending
 * question, and the graph's own first read of that thread in the same turn is handed the same
 * tuple instead of asking MongoDB again. The turn holds the thread's lease (one turn at a time per
 * thread, across replicas), so nothing can change the thread between the two reads.
 *
 * It also knows which of a thread's writes are still under way, so a turn can wait for them
 * ({@link stored}) where it must: the graph runs on while its steps are stored, and only a
 * model's answer and a tool's start wait (see write-barrier.ts). A write goes to the saver after
 * the work already pending in the event loop, in the order the graph asked for it: the graph's
 * next step (a model request) goes out first, and the write is encoded and sent while the model
 * thinks. Every other call goes to the saver untouched.
 */
export class TurnCheckpoints {
  /** What the graph is compiled with. */
  readonly saver: BaseCheckpointSaver;
  private readonly primed = new Map<string, CheckpointTuple | undefined>();
  /** Each thread's put and putWrites calls not yet done, and the first that failed (kept until release). */
  private readonly writes = new Map<string, { pending: Set<Promise<unknown>>; failed?: unknown }>();

  constructor(private readonly inner: BaseCheckpointSaver) {
    const bound = new Map<PropertyKey, unknown>();
    const own: Record<PropertyKey, unknown> = {
      getTuple: (config: RunnableConfig) => this.getTuple(config),
      put: (...args: Parameters<BaseCheckpointSaver["put"]>) => this.track(args[0], () => inner.put(...args)),
      putWrites: (...args: Parameters<BaseCheckpointSaver["putWrites"]>) =>
        this.track(args[0], () => inner.putWrites(...args)),
    };
    this.saver = new Proxy(inner, {
      get(target, property) {
        if (Object.hasOwn(own, property)) return own[property];
        const value = Reflect.get(target, property, target);
        if (typeof value !== "function") return value;
        // Methods run on the saver itself (its fields, its private state), not on the proxy.
        let method = bound.get(property);
        if (method === undefined) {
          method = value.bind(target);
          bound.set(property, method);
        }
        return method;
      },
    });
  }

  /**
   * The thread's latest checkpoint, read now and kept for the graph's first read of the thread;
   * call {@link release} when the turn ends, whether or not the graph ran.
   */
  async latest(threadId: string): Promise<CheckpointTuple | undefined> {
    const tuple = await this.inner.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } });
    this.primed.set(threadId, tuple);
    return tuple;
  }

  release(threadId: string): void {
    this.primed.delete(threadId);
    this.writes.delete(threadId);
  }

  /**
   * Resolves once every write the graph has asked for on the thread so far is stored; rejects with
   * the first that failed in this turn (it stays failed until {@link release}).
   */
  async stored(threadId: string): Promise<void> {
    const writes = this.writes.get(threadId);
    if (!writes) return;
    if (writes.pending.size > 0) await Promise.allSettled([...writes.pending]);
    if ("failed" in writes) throw writes.failed;
  }

  private track<T>(config: RunnableConfig, start: () => Promise<T>): Promise<T> {
    const write = afterPendingWork().then(start);
    const threadId = config.configurable?.thread_id;
    if (typeof threadId !== "string") return write;
    const writes = this.writes.get(threadId) ?? { pending: new Set<Promise<unknown>>() };
    this.writes.set(threadId, writes);
    writes.pending.add(write);
    write.then(
      () => {
        writes.pending.delete(write);
        // Nothing under way and nothing failed: the thread needs no entry (nor a release to drop it).
        if (writes.pending.size === 0 && !("failed" in writes) && this.writes.get(threadId) === writes)
          this.writes.delete(threadId);
      },
      (error: unknown) => {
        writes.pending.delete(write);
        if (!("failed" in writes)) writes.failed = error;
      },
    );
    return write;
  }

  private getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: id } = config.configurable ?? {};
    if (typeof threadId === "string" && !ns && !id && this.primed.has(threadId)) {
      const tuple = this.primed.get(threadId);
      // Once: a later read in the turn (after the graph wrote) must see what was written.
      this.primed.delete(threadId);
      return Promise.resolve(tuple);
    }
    return this.inner.getTuple(config);
  }
}

/** The interrupts a checkpoint is paused on (what getState reports as its tasks' interrupts). */
export function pendingInterrupts(tuple: CheckpointTuple | undefined): PendingInterrupt[] {
  const pending: PendingInterrupt[] = [];
  for (const [, channel, value] of tuple?.pendingWrites ?? []) {
    if (channel === INTERRUPT && Array.isArray(value)) pending.push(...(value as PendingInterrupt[]));
  }
  return pending;
}
