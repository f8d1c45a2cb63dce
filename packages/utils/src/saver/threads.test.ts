import { Binary } from "mongodb";
import { describe, expect, it } from "vitest";
import type { CheckpointDoc } from "./documents.js";
import { pack } from "./packing.js";
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

describe("ThreadState.addNode", () => {
  const ownsItsBuffer = (data: Binary | undefined) => data?.buffer.buffer.byteLength === data?.length();

  it("keeps each value's bytes in a buffer of their own, and counts them", () => {
    // zlib's output: a few bytes in its 16 KB chunk.
    const written = pack("json", new TextEncoder().encode(JSON.stringify(Array(50).fill("hello"))));
    expect(written.data.buffer.buffer.byteLength).toBeGreaterThan(16_000);
    // A document read from MongoDB: its value a view into the whole reply.
    const reply = new Uint8Array(64 * 1024).fill(7);
    const read = {
      ...doc("c2", "c1", 3),
      values: [{ c: "todo", v: 2, d: new Binary(reply.subarray(100, 140)) }],
    };

    const thread = new ThreadState("t");
    thread.addNode("", {
      id: "c1",
      legacy: false,
      values: new Map([["messages", { c: "messages", v: 1, d: written.data }]]),
    });
    learn(thread, read);

    const c1 = thread.namespace("").get("c1")?.values.get("messages")?.d;
    const c2 = thread.namespace("").get("c2")?.values.get("todo")?.d;
    expect(ownsItsBuffer(c1)).toBe(true);
    expect(ownsItsBuffer(c2)).toBe(true);
    expect(c1?.toString("hex")).toBe(written.data.toString("hex"));
    expect([...(c2?.buffer ?? [])]).toEqual(Array(40).fill(7));
    expect(thread.bytes - new ThreadState("empty").bytes).toBe(2 * 200 + written.data.length() + 40);

    // The same checkpoint stored again (a retried step): its new node owns its bytes too, counted once.
    const before = thread.bytes;
    thread.addNode("", {
      id: "c1",
      legacy: false,
      values: new Map([
        ["messages", { c: "messages", v: 1, d: pack("json", new Uint8Array(30).fill(32)).data }],
      ]),
    });
    expect(ownsItsBuffer(thread.namespace("").get("c1")?.values.get("messages")?.d)).toBe(true);
    expect(thread.bytes).toBe(before);
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
    // Room for two empty conversations and one checkpoint: not for the two with three checkpoints.
    const empty = new ThreadState("empty").bytes;
    const cache = new ThreadCache(2 * empty + 300);
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
