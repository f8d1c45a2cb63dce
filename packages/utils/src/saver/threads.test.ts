import { Binary } from "mongodb";
import { describe, expect, it } from "vitest";
import type { CheckpointDoc } from "./documents.js";
import { learn, memoKey, nodeOf, ThreadCache, ThreadState } from "./threads.js";

const doc = (id: string, parent?: string, format?: 3): CheckpointDoc => ({
  thread_id: "t",
  checkpoint_ns: "",
  checkpoint_id: id,
  ...(parent ? { parent_checkpoint_id: parent } : {}),
  ...(format ? { format } : {}),
  checkpoint: new Binary(),
  metadata: new Binary(),
  values: format ? [{ c: "messages", v: 1 }] : undefined,
});

describe("nodeOf", () => {
  it("takes a checkpoint's place in the tree and its stored values from its document", () => {
    const node = nodeOf(doc("c2", "c1", 3));
    expect(node).toMatchObject({ id: "c2", parent: "c1", legacy: false });
    expect([...node.values.keys()]).toEqual(["messages"]);
    expect(nodeOf(doc("u1"))).toMatchObject({ id: "u1", parent: undefined, legacy: true });
  });
});

describe("learn", () => {
  it("adds a checkpoint once, and marks its namespace for a fresh read when its parent is unknown", () => {
    const thread = new ThreadState("t");
    thread.loadedNamespaces.add("");
    learn(thread, doc("c1", undefined, 3));
    expect(thread.loadedNamespaces.has("")).toBe(true);
    learn(thread, doc("c2", "c1", 3));
    expect(thread.loadedNamespaces.has("")).toBe(true);
    learn(thread, doc("c9", "c8", 3));
    expect(thread.loadedNamespaces.has("")).toBe(false);
    expect([...thread.namespace("").keys()]).toEqual(["c1", "c2", "c9"]);
  });
});

describe("ThreadCache", () => {
  it("keeps one state per conversation until dropped", () => {
    const cache = new ThreadCache(1024 * 1024);
    const thread = cache.get("t");
    expect(cache.get("t")).toBe(thread);
    cache.delete("t");
    expect(cache.get("t")).not.toBe(thread);
  });

  it("drops the least recently used conversation past its byte budget", () => {
    const cache = new ThreadCache(500);
    const old = cache.get("old");
    old.addNode("", nodeOf(doc("c1", undefined, 3)));
    cache.touch(old);
    const recent = cache.get("recent");
    recent.addNode("", nodeOf(doc("c1", undefined, 3)));
    recent.addNode("", nodeOf(doc("c2", "c1", 3)));
    cache.touch(recent);
    expect(cache.get("recent")).toBe(recent);
    expect(cache.get("old")).not.toBe(old);
  });

  it("keys decoded values by namespace, checkpoint and channel", () => {
    expect(memoKey("", "c1", "messages")).not.toBe(memoKey("c1", "", "messages"));
  });
});
