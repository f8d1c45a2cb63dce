import { describe, expect, it } from "vitest";
import { checkpointsQuery, matching, pendingWritesQuery } from "./queries.js";

describe("matching", () => {
  it("asks nothing beside the conversation when given nothing", () => {
    expect(matching({})).toEqual({});
  });

  it("puts one condition as it is and several under $and, as one $expr", () => {
    expect(matching({ ns: "" })).toEqual({ $expr: { $eq: ["$checkpoint_ns", ""] } });
    expect(matching({ ns: "", before: "c5", keys: ["k"] })).toEqual({
      $expr: {
        $and: [{ $eq: ["$checkpoint_ns", ""] }, { $lt: ["$checkpoint_id", "c5"] }, { $in: ["$key", ["k"]] }],
      },
    });
  });
});

describe("checkpointsQuery", () => {
  it("lists one conversation's checkpoints, or every conversation's without a thread id", () => {
    expect(checkpointsQuery({ threadId: "t", ns: "" })).toEqual({
      thread_id: "t",
      $expr: { $eq: ["$checkpoint_ns", ""] },
    });
    expect(checkpointsQuery({ before: "c2" })).toEqual({ $expr: { $lt: ["$checkpoint_id", "c2"] } });
  });
});

describe("pendingWritesQuery", () => {
  const doc = (thread_id: string, checkpoint_id: string, checkpoint_ns = "") => ({
    thread_id,
    checkpoint_ns,
    checkpoint_id,
  });

  it("asks nothing for an empty page", () => {
    expect(pendingWritesQuery([])).toBeUndefined();
  });

  it("asks for one checkpoint's writes by its id", () => {
    expect(pendingWritesQuery([doc("t", "c1")])).toEqual({
      thread_id: "t",
      $expr: { $and: [{ $eq: ["$checkpoint_ns", ""] }, { $eq: ["$checkpoint_id", "c1"] }] },
    });
  });

  it("asks for a page's writes as one id range per conversation and namespace", () => {
    const query = pendingWritesQuery([doc("t", "c3"), doc("t", "c1"), doc("t", "c2"), doc("u", "c9", "sub")]);
    expect(query).toEqual({
      $or: [
        {
          thread_id: "t",
          $expr: {
            $and: [
              { $eq: ["$checkpoint_ns", ""] },
              { $gte: ["$checkpoint_id", "c1"] },
              { $lte: ["$checkpoint_id", "c3"] },
            ],
          },
        },
        {
          thread_id: "u",
          $expr: { $and: [{ $eq: ["$checkpoint_ns", "sub"] }, { $eq: ["$checkpoint_id", "c9"] }] },
        },
      ],
    });
  });
});
