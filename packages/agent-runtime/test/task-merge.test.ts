import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import type { JsonTask, TaskDocument } from "../src/tasks/task-document.js";
import { mergedTask, mergeWritten } from "../src/tasks/task-merge.js";

const WORKING = TaskState.TASK_STATE_WORKING;
const INPUT_REQUIRED = TaskState.TASK_STATE_INPUT_REQUIRED;
const CANCELED = TaskState.TASK_STATE_CANCELED;

function json(status: string, messages: string[], artifacts: Array<[string, string]> = []): JsonTask {
  return {
    id: "t1",
    contextId: "c1",
    status: { state: status, timestamp: status },
    history: messages.map((messageId) => ({ messageId, parts: [{ text: messageId }] })),
    artifacts: artifacts.map(([artifactId, text]) => ({ artifactId, parts: [{ text }] })),
  };
}

function stored(task: JsonTask, state: number): TaskDocument {
  return { _id: "o/t1", owner: "o", taskId: "t1", contextId: "c1", state, timestamp: "", task, rev: 3 };
}

describe("merging this replica's task into one written meanwhile", () => {
  it("keeps their messages and adds only ours they lack, in order", () => {
    const merged = mergedTask(json("ours", ["m1", "m2", "m3"]), json("theirs", ["m1", "m2", "x"]), false);
    expect(merged.history?.map((message) => message.messageId)).toEqual(["m1", "m2", "x", "m3"]);
  });

  it("takes our version of an artifact both have, and adds the ones only we have", () => {
    const merged = mergedTask(
      json(
        "ours",
        [],
        [
          ["answer", "long answer"],
          ["extra", "ours only"],
        ],
      ),
      json(
        "theirs",
        [],
        [
          ["theirs", "their artifact"],
          ["answer", "short"],
        ],
      ),
      false,
    );
    expect(merged.artifacts?.map((artifact) => [artifact.artifactId, artifact.parts?.[0]?.text])).toEqual([
      ["theirs", "their artifact"],
      ["answer", "long answer"],
      ["extra", "ours only"],
    ]);
  });

  it("keeps their status unless ours changes the state, and merges metadata with ours winning", () => {
    const ours = { ...json("ours", []), metadata: { a: 1, b: 1 } };
    const theirs = { ...json("theirs", []), metadata: { b: 2, c: 2 } };
    expect(mergedTask(ours, theirs, false).status?.timestamp).toBe("theirs");
    expect(mergedTask(ours, theirs, true).status?.timestamp).toBe("ours");
    expect(mergedTask(ours, theirs, true).metadata).toEqual({ a: 1, b: 1, c: 2 });
  });

  it("never lets held-back progress undo a change of state made elsewhere (a cancel)", () => {
    // We last saw it working and only added progress; another replica canceled it meanwhile.
    const merged = mergeWritten(
      { json: json("progress", ["m1"]), state: WORKING },
      stored(json("canceled", ["m1"]), CANCELED),
      WORKING,
    );
    expect(merged.state).toBe(CANCELED);
    expect(merged.json.status?.timestamp).toBe("canceled");
  });

  it("keeps our change of state, with their messages merged in", () => {
    const merged = mergeWritten(
      { json: json("question", ["m1"]), state: INPUT_REQUIRED },
      stored(json("working", ["m1", "m2"]), WORKING),
      WORKING,
    );
    expect(merged.state).toBe(INPUT_REQUIRED);
    expect(merged.json.status?.timestamp).toBe("question");
    expect(merged.json.history?.map((message) => message.messageId)).toEqual(["m1", "m2"]);
  });
});
