import { TaskState } from "@a2a-js/sdk";
import { resolveUserScope, type User } from "@a2a-js/sdk/server";
import { beforeAll, describe, expect, it } from "vitest";
import { listConversations, readConversation } from "../../src/conversations/history.js";
import type { AgentTaskStore } from "../../src/tasks/task-parts.js";
import { caller, contextOf, storeBackends, taskAt } from "./backends.js";

// One contract for an agent's A2A task store, run against the memory and the MongoDB one.

const alice = caller("alice");
const bob = caller("bob");
const ownerOf = (user: User) => resolveUserScope(contextOf(user));
const listAll = (store: AgentTaskStore, user: User, extra: Record<string, unknown> = {}) =>
  store.list(
    {
      tenant: "",
      contextId: "",
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: 50,
      pageToken: "",
      statusTimestampAfter: undefined,
      includeArtifacts: true,
      ...extra,
    },
    contextOf(user),
  );
const at = (minute: number) => new Date(Date.UTC(2026, 10, 29, 1, minute)).toISOString();

describe.each(storeBackends("task-store"))("the $name task store", (backend) => {
  let tasks: AgentTaskStore;
  let other: AgentTaskStore;

  beforeAll(async () => {
    tasks = (await backend.open("tasks-alpha")).tasks;
    other = (await backend.open("tasks-beta")).tasks;
  });

  it("loads what it saved for its owner only, as a copy", async () => {
    const saved = taskAt("t-load", "c-load", at(1));
    await tasks.save(saved, contextOf(alice));
    saved.contextId = "changed after saving";
    const loaded = await tasks.load("t-load", contextOf(alice));
    expect(loaded?.contextId).toBe("c-load");
    expect(loaded?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(await tasks.load("t-load", contextOf(bob))).toBeUndefined();
    expect(await tasks.load("t-missing", contextOf(alice))).toBeUndefined();
    // Saving again replaces.
    await tasks.save(taskAt("t-load", "c-load", at(2), "TASK_STATE_FAILED"), contextOf(alice));
    expect((await tasks.load("t-load", contextOf(alice)))?.status?.state).toBe(TaskState.TASK_STATE_FAILED);
  });

  it("keeps each agent's tasks apart", async () => {
    await tasks.save(taskAt("t-agent", "c-agent", at(3)), contextOf(alice));
    expect(await other.load("t-agent", contextOf(alice))).toBeUndefined();
    expect((await listAll(other, alice)).tasks).toEqual([]);
  });

  it("lists the owner's tasks newest first, filtered and paged, with artifacts only when asked", async () => {
    const user = caller("lister");
    for (const [id, contextId, minute, state] of [
      ["l-1", "c-a", 10, "TASK_STATE_COMPLETED"],
      ["l-2", "c-b", 11, "TASK_STATE_INPUT_REQUIRED"],
      ["l-3", "c-a", 12, "TASK_STATE_COMPLETED"],
      ["l-4", "c-a", 12, "TASK_STATE_COMPLETED"],
    ] as const)
      await tasks.save(taskAt(id, contextId, at(minute), state), contextOf(user));
    await tasks.save(taskAt("l-other", "c-a", at(13)), contextOf(bob));

    const all = await listAll(tasks, user);
    expect(all.tasks.map((task) => task.id)).toEqual(["l-4", "l-3", "l-2", "l-1"]);
    expect(all).toMatchObject({ totalSize: 4, nextPageToken: "" });
    expect(all.tasks[0]?.artifacts).toHaveLength(1);

    const inA = await listAll(tasks, user, { contextId: "c-a", includeArtifacts: false });
    expect(inA.tasks.map((task) => task.id)).toEqual(["l-4", "l-3", "l-1"]);
    expect(inA.tasks.every((task) => task.artifacts.length === 0)).toBe(true);
    expect(
      (await listAll(tasks, user, { status: TaskState.TASK_STATE_INPUT_REQUIRED })).tasks.map((t) => t.id),
    ).toEqual(["l-2"]);
    expect((await listAll(tasks, user, { statusTimestampAfter: at(11) })).tasks.map((t) => t.id)).toEqual([
      "l-4",
      "l-3",
    ]);

    const first = await listAll(tasks, user, { pageSize: 3 });
    expect(first.tasks.map((task) => task.id)).toEqual(["l-4", "l-3", "l-2"]);
    expect(first.nextPageToken).not.toBe("");
    const second = await listAll(tasks, user, { pageSize: 3, pageToken: first.nextPageToken });
    expect(second.tasks.map((task) => task.id)).toEqual(["l-1"]);
    expect(second.nextPageToken).toBe("");
  });

  it("gives the same conversation list and history (history.ts reads any store)", async () => {
    const user = caller("historian");
    await tasks.save(taskAt("h-1", "c-old", at(20)), contextOf(user));
    await tasks.save(taskAt("h-2", "c-new", at(21), "TASK_STATE_INPUT_REQUIRED"), contextOf(user));
    await tasks.save(taskAt("h-3", "c-old", at(22)), contextOf(user));
    const listed = await listConversations(tasks, user);
    expect(listed).toEqual([
      { contextId: "c-old", title: "question h-1", updatedAt: at(22), tasks: 2, state: "completed" },
      { contextId: "c-new", title: "question h-2", updatedAt: at(21), tasks: 1, state: "input-required" },
    ]);
    const history = await readConversation(tasks, user, "c-old");
    expect(history?.tasks.map((task) => [task.taskId, task.answer])).toEqual([
      ["h-1", "answer h-1"],
      ["h-3", "answer h-3"],
    ]);
    expect(await readConversation(tasks, bob, "c-old")).toBeUndefined();
  });

  it("deletes the owner's part of a conversation, and nobody else's", async () => {
    const user = caller("deleter");
    await tasks.save(taskAt("d-1", "c-gone", at(30)), contextOf(user));
    await tasks.save(taskAt("d-2", "c-gone", at(31)), contextOf(user));
    await tasks.save(taskAt("d-3", "c-kept", at(32)), contextOf(user));
    // Another user under the same contextId, and the same task id in another agent.
    await tasks.save(taskAt("d-4", "c-gone", at(33)), contextOf(bob));
    await other.save(taskAt("d-1", "c-gone", at(30)), contextOf(user));

    expect((await tasks.taskIdsIn(ownerOf(user), "c-gone")).sort()).toEqual(["d-1", "d-2"]);
    expect(await tasks.deleteConversation(ownerOf(user), "c-gone")).toBe(2);
    expect(await tasks.load("d-1", contextOf(user))).toBeUndefined();
    expect(await tasks.taskIdsIn(ownerOf(user), "c-gone")).toEqual([]);
    expect(await tasks.load("d-3", contextOf(user))).toBeDefined();
    expect(await tasks.load("d-4", contextOf(bob))).toBeDefined();
    expect(await other.load("d-1", contextOf(user))).toBeDefined();
    expect(await tasks.deleteConversation(ownerOf(user), "c-gone")).toBe(0);
  });

  it("deletes every task of a user, and nobody else's", async () => {
    const user = caller("leaver");
    await tasks.save(taskAt("u-1", "c-1", at(40)), contextOf(user));
    await tasks.save(taskAt("u-2", "c-2", at(41)), contextOf(user));
    await tasks.save(taskAt("u-3", "c-1", at(42)), contextOf(bob));
    expect(await tasks.deleteUser(ownerOf(user))).toBe(2);
    expect((await listAll(tasks, user)).tasks).toEqual([]);
    expect(await tasks.load("u-3", contextOf(bob))).toBeDefined();
  });
});
