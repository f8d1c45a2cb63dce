import { describe, expect, it } from "vitest";
import {
  ABSENT,
  ANCHOR_EVERY,
  anchorDue,
  applyStoredStep,
  type Fold,
  sharedPrefixLength,
  storedChain,
} from "./ancestry.js";
import type { StoredValue } from "./documents.js";
import { type CheckpointNode, memoKey, ThreadState } from "./threads.js";

const owner = (checkpoint: string) => ({ thread: "t", ns: "", checkpoint, channel: "messages" });

/** A thread whose tree is the given nodes (id, parent, what each stored of "messages"). */
function tree(nodes: Array<[id: string, parent: string | undefined, stored?: Omit<StoredValue, "c">]>) {
  const thread = new ThreadState("t");
  for (const [id, parent, stored] of nodes) {
    const node: CheckpointNode = { id, parent, legacy: false, values: new Map() };
    if (stored) node.values.set("messages", { c: "messages", ...stored });
    thread.addNode("", node);
  }
  return thread;
}

describe("storedChain", () => {
  it("finds the nearest ancestor that stored the channel, skipping checkpoints that did not", () => {
    const thread = tree([
      ["1", undefined, { v: 1 }],
      ["2", "1"],
      ["3", "2"],
    ]);
    const { steps, base, legacy } = storedChain(thread, "", "3", "messages");
    expect(steps.map((step) => step.node.id)).toEqual(["1"]);
    expect(base).toBeUndefined();
    expect(legacy).toBeUndefined();
  });

  it("collects list extensions newest first, down to the whole value they extend", () => {
    const thread = tree([
      ["0", undefined, { v: 1 }],
      ["1", "0", { v: 2 }],
      ["2", "1", { v: 3, k: 1 }],
      ["3", "2", { v: 4, k: 2 }],
    ]);
    expect(storedChain(thread, "", "3", "messages").steps.map((step) => step.node.id)).toEqual([
      "3",
      "2",
      "1",
    ]);
  });

  it("follows only the checkpoint's own path, so a fork never sees its sibling's value", () => {
    const thread = tree([
      ["1", undefined, { v: 1 }],
      ["2a", "1", { v: 2 }],
      ["2b", "1"],
    ]);
    expect(storedChain(thread, "", "2b", "messages").steps.map((step) => step.node.id)).toEqual(["1"]);
    expect(storedChain(thread, "", "2a", "messages").steps.map((step) => step.node.id)).toEqual(["2a"]);
  });

  it("starts from a value resolved before, and stops at an upstream document", () => {
    const thread = tree([
      ["1", undefined, { v: 1 }],
      ["2", "1", { v: 2, k: 0 }],
    ]);
    const memo = { version: 1, value: ["kept"], owner: owner("1") };
    thread.decoded.set(memoKey("", "1", "messages"), memo);
    expect(storedChain(thread, "", "2", "messages")).toMatchObject({ base: memo });

    const upstream = new ThreadState("t");
    upstream.addNode("", { id: "u", legacy: true, values: new Map() });
    upstream.addNode("", { id: "n", parent: "u", legacy: false, values: new Map() });
    expect(storedChain(upstream, "", "n", "messages")).toMatchObject({ steps: [], legacy: { id: "u" } });
  });

  it("finds nothing for a channel no ancestor stored, or a checkpoint not in the tree", () => {
    const thread = tree([["1", undefined]]);
    expect(storedChain(thread, "", "1", "messages")).toEqual({ steps: [] });
    expect(storedChain(thread, "", "missing", "messages")).toEqual({ steps: [] });
  });
});

describe("applyStoredStep", () => {
  it("replaces the value with a whole stored value", () => {
    const fold = applyStoredStep({}, { c: "messages", v: 1 }, ["a"], owner("1"));
    expect(fold).toEqual({ current: { version: 1, value: ["a"], owner: owner("1") } });
  });

  it("marks an emptied channel absent, ending any list being extended", () => {
    const start: Fold = { current: { version: 1, value: ["a"], owner: owner("1") }, list: ["a"] };
    const fold = applyStoredStep(start, { c: "messages", v: 2, x: true }, undefined, owner("2"));
    expect(fold.current?.value).toBe(ABSENT);
    expect(fold.list).toBeUndefined();
  });

  it("keeps k items of the list so far and appends, leaving the value it started from untouched", () => {
    const stored = ["a", "b", "c"];
    let fold: Fold = { current: { version: 1, value: stored, owner: owner("1") } };
    fold = applyStoredStep(fold, { c: "messages", v: 2, k: 2 }, ["x"], owner("2"));
    fold = applyStoredStep(fold, { c: "messages", v: 3, k: 3 }, ["y", "z"], owner("3"));
    expect(fold.current).toEqual({ version: 3, value: ["a", "b", "x", "y", "z"], owner: owner("3") });
    expect(stored).toEqual(["a", "b", "c"]);
  });

  it("refuses an extension of something that is not a list, naming the checkpoint", () => {
    const fold: Fold = { current: { version: 1, value: "text", owner: owner("1") } };
    expect(() => applyStoredStep(fold, { c: "messages", v: 2, k: 1 }, ["x"], owner("2"))).toThrow(
      /Checkpoint 2 of conversation t extends a list its ancestors do not store \(channel messages\)/,
    );
  });
});

describe("sharedPrefixLength", () => {
  it("counts leading items that are the same objects", () => {
    const [a, b, c] = [{}, {}, {}];
    expect(sharedPrefixLength([a, b], [a, b, c])).toBe(2);
    expect(sharedPrefixLength([a, b, c], [a, { ...b }, c])).toBe(1);
    expect(sharedPrefixLength([a, b, c], [a])).toBe(1);
    expect(sharedPrefixLength([], [a])).toBe(0);
  });
});

describe("anchorDue", () => {
  it("anchors every ANCHOR_EVERY-th step back, never the newest", () => {
    expect(anchorDue(0)).toBe(false);
    expect(anchorDue(ANCHOR_EVERY)).toBe(true);
    expect(anchorDue(ANCHOR_EVERY + 1)).toBe(false);
    expect(anchorDue(ANCHOR_EVERY * 2)).toBe(true);
  });
});
