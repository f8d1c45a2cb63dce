import { ERROR, INTERRUPT, TASKS } from "@langchain/langgraph-checkpoint";
import { Binary } from "mongodb";
import { describe, expect, it } from "vitest";
import type { UpstreamWriteDoc, WritesDoc } from "./documents.js";
import {
  checkpointKey,
  groupByCheckpoint,
  orderedWrites,
  pendingSendsVersion,
  writeIndex,
} from "./pending-writes.js";

const data = (text: string) => new Binary(new TextEncoder().encode(text));
const at = { thread_id: "t", checkpoint_ns: "", checkpoint_id: "c1" };

function ours(taskId: string, writes: Array<[number, string, string]>, taskPath = ""): WritesDoc {
  return {
    ...at,
    task_id: taskId,
    task_path: taskPath,
    writes: writes.map(([i, c, d]) => ({ i, c, d: data(d) })),
  };
}

const seen = (docs: Parameters<typeof orderedWrites>[0]) =>
  orderedWrites(docs).map(
    ({ taskId, write }) => `${taskId}/${write.i}/${write.c}=${new TextDecoder().decode(write.d.buffer)}`,
  );

describe("orderedWrites", () => {
  it("keeps a slot's first regular write, as a retried task writes it again", () => {
    expect(seen([ours("a", [[0, "x", "first"]]), ours("a", [[0, "x", "retry"]])])).toEqual(["a/0/x=first"]);
  });

  it("keeps a slot's last special write (errors, interrupts)", () => {
    const i = writeIndex(ERROR, 0);
    expect(seen([ours("a", [[i, ERROR, "old"]]), ours("a", [[i, ERROR, "new"]])])).toEqual([
      `a/${i}/${ERROR}=new`,
    ]);
  });

  it("orders writes by task path, task and index, as LangGraph applies them", () => {
    const docs = [
      ours(
        "b",
        [
          [1, "y", "b1"],
          [0, "x", "b0"],
        ],
        "~1",
      ),
      ours("a", [[0, "x", "a0"]], "~0"),
    ];
    expect(seen(docs)).toEqual(["a/0/x=a0", "b/0/x=b0", "b/1/y=b1"]);
  });

  it("reads upstream's one-write documents beside ours", () => {
    const upstream: UpstreamWriteDoc = {
      ...at,
      task_id: "u",
      idx: 0,
      channel: "x",
      type: "json",
      value: data("up"),
    };
    const [slot] = orderedWrites([upstream]);
    expect(slot).toMatchObject({ taskId: "u", path: "", upstream: true, write: { i: 0, c: "x", t: "json" } });
  });
});

describe("groupByCheckpoint", () => {
  it("groups write documents per conversation, namespace and checkpoint, keeping their order", () => {
    const first = ours("a", []);
    const second = ours("b", []);
    const other = { ...ours("c", []), checkpoint_id: "c2" };
    const groups = groupByCheckpoint([first, other, second]);
    expect(groups.get(checkpointKey(at))).toEqual([first, second]);
    expect(groups.get(checkpointKey({ ...at, checkpoint_id: "c2" }))).toEqual([other]);
  });
});

describe("writeIndex", () => {
  it("gives special channels their fixed index and others their place in the task", () => {
    expect(writeIndex("messages", 3)).toBe(3);
    expect(writeIndex(ERROR, 3)).toBeLessThan(0);
    expect(writeIndex(INTERRUPT, 3)).toBeLessThan(0);
  });
});

describe("pendingSendsVersion", () => {
  it("is the newest channel version, or the first version of a checkpoint with none", () => {
    expect(pendingSendsVersion({ a: 2, b: 5, [TASKS]: 1 }, () => 1)).toBe(5);
    expect(pendingSendsVersion({}, () => 1)).toBe(1);
  });
});
