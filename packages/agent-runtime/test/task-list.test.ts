import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { KnownRevisions } from "../src/tasks/known-revisions.js";
import { decodePageToken, encodePageToken, listFilter, pageFilter } from "../src/tasks/task-list.js";

const request = {
  tenant: "",
  contextId: "",
  status: TaskState.TASK_STATE_UNSPECIFIED,
  pageSize: undefined,
  pageToken: "",
  historyLength: undefined,
  statusTimestampAfter: undefined,
  includeArtifacts: undefined,
};

describe("tasks/list as a query", () => {
  it("lists only the caller's tasks, narrowed by conversation, state and time when asked", () => {
    expect(listFilter(request, "alice")).toEqual({ owner: "alice" });
    expect(
      listFilter(
        {
          ...request,
          contextId: "c1",
          status: TaskState.TASK_STATE_COMPLETED,
          statusTimestampAfter: "2025-01-01T00:00:00Z",
        },
        "alice",
      ),
    ).toEqual({
      owner: "alice",
      contextId: "c1",
      state: TaskState.TASK_STATE_COMPLETED,
      timestamp: { $gt: "2025-01-01T00:00:00Z" },
    });
  });

  it("carries the last task shown in the page token, and goes on after it", () => {
    const token = encodePageToken({ timestamp: "t5", id: "task-9" });
    expect(decodePageToken(token)).toEqual({ timestamp: "t5", id: "task-9" });
    expect(pageFilter({ owner: "alice" }, token)).toEqual({
      owner: "alice",
      $or: [{ timestamp: { $lt: "t5" } }, { timestamp: "t5", taskId: { $lt: "task-9" } }],
    });
    expect(pageFilter({ owner: "alice" }, "")).toEqual({ owner: "alice" });
  });

  it("reads a token it did not make as a cursor before every task", () => {
    expect(decodePageToken("not a token")).toEqual({ timestamp: "", id: "" });
    expect(decodePageToken(Buffer.from('{"timestamp":1}').toString("base64url"))).toEqual({
      timestamp: "",
      id: "",
    });
  });
});

describe("the revisions remembered for tasks no turn here writes", () => {
  it("forgets the least recently remembered beyond its limit, and hands an entry over once", () => {
    const known = new KnownRevisions(2);
    known.remember("a", { rev: 1, state: 1 });
    known.remember("b", "new");
    known.remember("a", { rev: 2, state: 1 }); // a is now the newest
    known.remember("c", null);
    expect(known.get("b")).toBeUndefined();
    expect(known.get("a")).toEqual({ rev: 2, state: 1 });
    expect(known.take("c")).toBeNull();
    expect(known.take("c")).toBeUndefined();
  });
});
