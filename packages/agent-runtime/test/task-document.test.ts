import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { failedTask } from "../src/tasks/failed-task.js";
import {
  atRevision,
  finished,
  holdsBack,
  type JsonTask,
  storableTask,
  storedOf,
  taskDocument,
  turnRunning,
} from "../src/tasks/task-document.js";

const { TASK_STATE_WORKING: WORKING, TASK_STATE_COMPLETED: COMPLETED } = TaskState;

describe("a task's stored document", () => {
  it("is keyed by owner and task, with the fields lists and revisions are read from", () => {
    const json: JsonTask = {
      id: "t1",
      contextId: "c1",
      status: { state: "x", timestamp: "2025-01-01T00:00:00Z" },
    };
    expect(taskDocument("owner/t1", "owner", json, WORKING, 4)).toEqual({
      _id: "owner/t1",
      owner: "owner",
      taskId: "t1",
      contextId: "c1",
      state: WORKING,
      timestamp: "2025-01-01T00:00:00Z",
      task: json,
      rev: 4,
    });
  });

  it("reads documents written before revisions as revision 0, and finds them by the missing field", () => {
    expect(storedOf({ state: WORKING })).toEqual({ rev: 0, state: WORKING });
    expect(storedOf({ state: WORKING, rev: 7 })).toEqual({ rev: 7, state: WORKING });
    expect(storedOf(null)).toBeNull();
    expect(atRevision("o/t", 0)).toEqual({ _id: "o/t", rev: { $exists: false } });
    expect(atRevision("o/t", 3)).toEqual({ _id: "o/t", rev: 3 });
  });

  it("holds back progress within a stored state, but writes a change of state or a finished task at once", () => {
    expect(holdsBack({ rev: 1, state: WORKING }, WORKING)).toBe(true);
    expect(holdsBack({ rev: 1, state: WORKING }, COMPLETED)).toBe(false);
    // A turn that started is progress too; waiting for the user is not.
    expect(holdsBack({ rev: 1, state: TaskState.TASK_STATE_SUBMITTED }, WORKING)).toBe(true);
    expect(holdsBack({ rev: 1, state: WORKING }, TaskState.TASK_STATE_INPUT_REQUIRED)).toBe(false);
    expect(holdsBack({ rev: 1, state: TaskState.TASK_STATE_INPUT_REQUIRED }, WORKING)).toBe(false);
    expect(holdsBack({ rev: 1, state: COMPLETED }, COMPLETED)).toBe(false);
    expect(holdsBack(null, WORKING)).toBe(false);
    expect(holdsBack(undefined, WORKING)).toBe(false);
    expect(turnRunning(WORKING) && !finished(WORKING)).toBe(true);
    expect(turnRunning(TaskState.TASK_STATE_INPUT_REQUIRED)).toBe(false);
    expect(finished(TaskState.TASK_STATE_INPUT_REQUIRED)).toBe(false);
    expect(finished(TaskState.TASK_STATE_CANCELED)).toBe(true);
  });

  it("cuts only oversized text parts of a task too large for one document, and says so", () => {
    const small: JsonTask = { id: "t", history: [{ messageId: "m", parts: [{ text: "hello" }] }] };
    expect(storableTask(small)).toBe(small);
    const log = "x".repeat(9 * 1024 * 1024);
    const large: JsonTask = {
      id: "t",
      history: [{ messageId: "m", parts: [{ text: "short" }, { text: log }] }],
    };
    const stored = storableTask(large);
    const [short, cut] = stored.history?.[0]?.parts ?? [];
    expect(short?.text).toBe("short");
    expect(cut?.text?.startsWith("x".repeat(64 * 1024))).toBe(true);
    expect(cut?.text).toContain(`[… ${log.length - 64 * 1024} characters omitted from the stored copy]`);
    // The task in memory keeps its whole text.
    expect(large.history?.[0]?.parts?.[1]?.text).toBe(log);
  });

  it("fails an abandoned task with the reason as the agent's status message, one revision on", () => {
    const current = {
      _id: "o/t1",
      owner: "o",
      taskId: "t1",
      contextId: "c1",
      state: WORKING,
      timestamp: "before",
      task: { id: "t1", contextId: "c1", status: { state: "TASK_STATE_WORKING" } },
    };
    const { task, document } = failedTask(current, 0, "the replica went away", "now");
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    const part = task.status?.message?.parts[0]?.content;
    expect(part?.$case === "text" && part.value).toBe("the replica went away");
    expect(document).toMatchObject({
      _id: "o/t1",
      state: TaskState.TASK_STATE_FAILED,
      timestamp: "now",
      rev: 1,
    });
    expect((document.task as JsonTask).status?.state).toBe("TASK_STATE_FAILED");
  });
});
