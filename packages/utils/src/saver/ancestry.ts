// Resolving a channel over a checkpoint's ancestors: which stored pieces apply, and how they combine.
import { SwitchboardError } from "@switchboard/common";
import type { StoredValue } from "./documents.js";
import { type CheckpointNode, memoKey, type Resolved, type ThreadState } from "./threads.js";

/** A channel emptied at a checkpoint (LangGraph keeps it apart from one holding `undefined`). */
export const ABSENT = Symbol("absent");

/** How many stored steps apart a long walk leaves a resolved list behind (see ThreadState.anchors). */
export const ANCHOR_EVERY = 32;

/** A checkpoint on the path that stored the channel, and what it stored. */
export interface StoredStep {
  node: CheckpointNode;
  value: StoredValue;
}

/**
 * What a channel's value at a checkpoint is made of, found by walking its ancestors (only the
 * path to the root, so forks stay apart): the stored pieces newest first, down to the nearest
 * one that is whole (not a list extending its parent's), and what they start from: a value
 * resolved before (`base`), or an upstream document that holds every channel (`legacy`).
 */
export interface StoredChain {
  steps: StoredStep[];
  base?: Resolved;
  legacy?: CheckpointNode;
}

export function storedChain(
  thread: ThreadState,
  ns: string,
  checkpointId: string,
  channel: string,
): StoredChain {
  const nodes = thread.namespace(ns);
  const steps: StoredStep[] = [];
  for (let node = nodes.get(checkpointId); node; node = node.parent ? nodes.get(node.parent) : undefined) {
    const key = memoKey(ns, node.id, channel);
    const memo = thread.decoded.get(key) ?? thread.anchorAt(key);
    if (memo) return { steps, base: memo };
    if (node.legacy) return { steps, legacy: node };
    const value = node.values.get(channel);
    if (!value) continue;
    steps.push({ node, value });
    if (value.k === undefined) break;
  }
  return { steps };
}

/**
 * The value so far while a chain is applied oldest first. `list` is the fold's own working copy
 * of a list being extended: an append (the usual step) then costs only the new items.
 */
export interface Fold {
  current?: Resolved;
  list?: unknown[];
}

/**
 * Applies one stored piece (`decoded`: its value, or for an extension the added items) on top of
 * the value so far. An emptied channel ends any list; a whole value replaces it; an extension
 * keeps `k` items of the list so far and appends.
 */
export function applyStoredStep(
  fold: Fold,
  value: StoredValue,
  decoded: unknown,
  owner: Resolved["owner"],
): Fold {
  if (value.x) return { current: { version: value.v, value: ABSENT, owner } };
  if (value.k === undefined) return { current: { version: value.v, value: decoded, owner } };
  let list = fold.list;
  if (!list) {
    if (!Array.isArray(fold.current?.value)) {
      throw new SwitchboardError(
        "checkpointer.corrupt",
        "system",
        `Checkpoint ${owner.checkpoint} of conversation ${owner.thread} extends a list its ancestors do not store (channel ${owner.channel}).`,
      );
    }
    list = (fold.current.value as unknown[]).slice();
  }
  list.length = value.k;
  for (const item of decoded as unknown[]) list.push(item);
  return { current: { version: value.v, value: list, owner }, list };
}

/** Whether the walk leaves the list resolved at step `index` (0 = newest) behind as an anchor. */
export function anchorDue(index: number): boolean {
  return index > 0 && index % ANCHOR_EVERY === 0;
}

/** How many leading items a new list keeps from the previous value, object for object. */
export function sharedPrefixLength(previous: readonly unknown[], next: readonly unknown[]): number {
  const limit = Math.min(previous.length, next.length);
  let kept = 0;
  while (kept < limit && previous[kept] === next[kept]) kept++;
  return kept;
}
