import { emptyCheckpoint } from "@langchain/langgraph-checkpoint";
import { Binary, MongoBulkWriteError } from "mongodb";
import { describe, expect, it } from "vitest";
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
import { FORMAT } from "./documents.js";
import { MAX_VALUE_BYTES } from "./limits.js";
import { unpackBodies } from "./packing.js";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("changedChannels", () => {
  it("lists the channels with new versions, keeping an emptied channel apart from one holding undefined", () => {
    const checkpoint = {
      ...emptyCheckpoint(),
      channel_values: { messages: ["m"], held: undefined, untouched: 1 },
      channel_versions: { messages: 3, held: 2, gone: 2, untouched: 1 },
    };
    expect(changedChannels(checkpoint, { messages: 3, held: 2, gone: 2 })).toEqual([
      { channel: "messages", version: 3, emptied: false, value: ["m"] },
      { channel: "held", version: 2, emptied: false, value: undefined },
      { channel: "gone", version: 2, emptied: true },
    ]);
  });

  it("takes the new version when the checkpoint does not carry one", () => {
    const checkpoint = { ...emptyCheckpoint(), channel_values: { a: 1 } };
    expect(changedChannels(checkpoint, { a: 7 })).toEqual([
      { channel: "a", version: 7, emptied: false, value: 1 },
    ]);
  });
});

describe("stored values", () => {
  const data = new Binary(bytes("[1]"));

  it("stores only the items after those kept from the parent's list", () => {
    expect(storedPart(["a", "b", "c"], 2)).toEqual(["c"]);
    const whole = ["a"];
    expect(storedPart(whole, 0)).toBe(whole);
  });

  it("records how many items it keeps, and its type only when not plain json", () => {
    const change = { channel: "messages", version: 4, emptied: false, value: [] } as const;
    expect(storedValue(change, { type: "json", data }, 3)).toEqual({ c: "messages", v: 4, d: data, k: 3 });
    expect(storedValue(change, { type: "json+zd1", data })).toEqual({
      c: "messages",
      v: 4,
      t: "json+zd1",
      d: data,
    });
    expect(storedValue({ channel: "x", version: 2, emptied: true })).toEqual({ c: "x", v: 2, x: true });
  });

  it("counts the body and every stored value toward the document's size", () => {
    expect(
      storedSize(
        [storedValue({ channel: "a", version: 1, emptied: false, value: 1 }, { type: "json", data })],
        10,
      ),
    ).toBe(13);
    expect(storedSize([{ c: "x", v: 1, x: true }], 10)).toBe(10);
  });
});

describe("documents", () => {
  it("stores a checkpoint without its values and id, packed, under this format", () => {
    const checkpoint = {
      ...emptyCheckpoint(),
      id: "c1",
      channel_values: { a: 1 },
      channel_versions: { a: 1 },
    };
    const body = checkpointBody(checkpoint);
    expect(body).not.toHaveProperty("channel_values");
    expect(body).not.toHaveProperty("id");
    expect(body.channel_versions).toEqual({ a: 1 });

    const expireAt = new Date(0);
    const doc = checkpointDocument({
      threadId: "t",
      ns: "",
      checkpointId: "c2",
      parent: "c1",
      type: "json",
      checkpointBytes: bytes('{"v":4}'),
      metadataBytes: bytes('{"step":1}'),
      values: [],
      expireAt,
    });
    expect(doc).toMatchObject({
      thread_id: "t",
      checkpoint_ns: "",
      checkpoint_id: "c2",
      parent_checkpoint_id: "c1",
      format: FORMAT,
      values: [],
      expire_at: expireAt,
    });
    expect(doc).not.toHaveProperty("type");
    const unpacked = unpackBodies(doc);
    expect(new TextDecoder().decode(unpacked.checkpoint)).toBe('{"v":4}');
    expect(new TextDecoder().decode(unpacked.metadata)).toBe('{"step":1}');
  });

  it("leaves out what a first checkpoint without retention does not have, and names a non-json type", () => {
    const doc = checkpointDocument({
      threadId: "t",
      ns: "sub",
      checkpointId: "c1",
      type: "msgpack",
      checkpointBytes: bytes("{}"),
      metadataBytes: bytes("{}"),
      values: [],
    });
    expect(doc).not.toHaveProperty("parent_checkpoint_id");
    expect(doc).not.toHaveProperty("expire_at");
    expect(doc.type).toBe("msgpack");
  });

  it("stores a task's writes as one document, with an empty path when none is given", () => {
    const doc = writesDocument({ threadId: "t", ns: "", checkpointId: "c1", taskId: "task" }, []);
    expect(doc).toEqual({
      thread_id: "t",
      checkpoint_ns: "",
      checkpoint_id: "c1",
      task_id: "task",
      task_path: "",
      writes: [],
    });
  });

  it("builds one document per new message and refuses one past the document limit", () => {
    const message = {} as never;
    const docs = messageDocuments(
      "t",
      new Map([["m1:abc", { type: "json", bytes: bytes('"hi"'), message }]]),
      new Date(1),
    );
    expect(docs).toEqual([
      { thread_id: "t", key: "m1:abc", type: "json", body: expect.any(Binary), expire_at: new Date(1) },
    ]);
    const huge = { type: "json", bytes: new Uint8Array(MAX_VALUE_BYTES + 1), message };
    expect(() => messageDocuments("t", new Map([["big:1", huge]]))).toThrow(/16 MB document limit/);
  });
});

describe("onlyDuplicates", () => {
  const bulkError = (codes: number[]) =>
    new MongoBulkWriteError(
      {
        message: "write errors",
        code: codes[0] ?? 0,
        writeErrors: codes.map((code, index) => ({ code, index, errmsg: "" })),
      } as never,
      {} as never,
    );

  it("tells a batch that only met stored keys from a real failure", () => {
    expect(onlyDuplicates(bulkError([11000, 11000]))).toBe(true);
    expect(onlyDuplicates(bulkError([11000, 121]))).toBe(false);
    expect(onlyDuplicates(new Error("network"))).toBe(false);
  });
});
