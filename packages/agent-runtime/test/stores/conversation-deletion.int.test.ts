import { TaskPushNotificationConfig } from "@a2a-js/sdk";
import { resolveUserScope, type User } from "@a2a-js/sdk/server";
import { emptyCheckpoint } from "@langchain/langgraph";
import { beforeAll, describe, expect, it } from "vitest";
import { threadIdFor } from "../../src/auth/caller.js";
import { deleteConversation, deleteUserConversations } from "../../src/conversations/deletion.js";
import type { AgentStores } from "../../src/stores/agent-stores.js";
import { caller, contextOf, storeBackends, taskAt } from "./backends.js";

// Deleting a conversation and forgetting a user across an agent's whole store bundle: each store
// deletes its own part (checkpoints, tasks, their push configs, the thread's lease), on either backend.

const alice = caller("alice");
const bob = caller("bob");

/** A conversation of the user's as a turn leaves it: a checkpoint, a task with a webhook. */
async function converse(stores: AgentStores, user: User, contextId: string, taskId: string): Promise<void> {
  const thread = { configurable: { thread_id: threadIdFor(contextId, user), checkpoint_ns: "" } };
  await stores.checkpointer.put(
    thread,
    { ...emptyCheckpoint(), id: `cp-${taskId}` },
    { source: "input", step: 0, parents: {} },
    {},
  );
  await stores.tasks.save(taskAt(taskId, contextId, new Date().toISOString()), contextOf(user));
  await stores.pushConfigs.save(
    taskId,
    contextOf(user),
    TaskPushNotificationConfig.fromJSON({ id: "hook", taskId, url: "https://hooks.example.com/x" }),
  );
}

const checkpointOf = async (stores: AgentStores, user: User, contextId: string) =>
  stores.checkpointer.getTuple({
    configurable: { thread_id: threadIdFor(contextId, user), checkpoint_ns: "" },
  });

describe.each(storeBackends("conversation-deletion"))("deleting conversations on $name stores", (backend) => {
  let stores: AgentStores;
  let neighbour: AgentStores;

  beforeAll(async () => {
    stores = await backend.open("deletion-alpha", { policy: "reject" });
    neighbour = await backend.open("deletion-beta", { policy: "reject" });
  });

  it("deletes one conversation of the caller from every store, then runs the agent's hooks", async () => {
    await converse(stores, alice, "ctx-del", "t-del-1");
    await converse(stores, alice, "ctx-kept", "t-kept");
    await converse(stores, bob, "ctx-del", "t-bob");
    await converse(neighbour, alice, "ctx-del", "t-del-1");
    // A lease a crashed turn left on the thread.
    await stores.locks.acquire(threadIdFor("ctx-del", alice), new AbortController().signal);

    const hooked: string[] = [];
    const deleted = await deleteConversation(
      {
        ...stores,
        hooks: [
          async (contextId) => {
            hooked.push(contextId);
            return { subagents: [], agent: "a hook cannot replace this" };
          },
        ],
      },
      "ctx-del",
      alice,
    );
    expect(deleted).toEqual({
      agent: "deletion-alpha",
      contextId: "ctx-del",
      checkpoints: "deleted",
      tasks: 1,
      subagents: [],
    });
    expect(hooked).toEqual(["ctx-del"]);
    expect(await checkpointOf(stores, alice, "ctx-del")).toBeUndefined();
    expect(await stores.tasks.load("t-del-1", contextOf(alice))).toBeUndefined();
    expect(await stores.pushConfigs.load("t-del-1", contextOf(alice))).toEqual([]);
    // The thread is free again.
    await (await stores.locks.acquire(threadIdFor("ctx-del", alice), new AbortController().signal)).release();

    // Nothing else: their other conversation, the other user's under the same id, the other agent's.
    expect(await checkpointOf(stores, alice, "ctx-kept")).toBeDefined();
    expect(await stores.tasks.load("t-kept", contextOf(alice))).toBeDefined();
    expect(await checkpointOf(stores, bob, "ctx-del")).toBeDefined();
    expect(await stores.pushConfigs.load("t-bob", contextOf(bob))).toHaveLength(1);
    expect(await checkpointOf(neighbour, alice, "ctx-del")).toBeDefined();
    expect(await neighbour.tasks.load("t-del-1", contextOf(alice))).toBeDefined();
  });

  it("forgets every conversation of a user, and only theirs", async () => {
    const leaver = caller("leaver");
    await converse(stores, leaver, "ctx-1", "t-l-1");
    await converse(stores, leaver, "ctx-1", "t-l-2");
    await converse(stores, leaver, "ctx-2", "t-l-3");
    await converse(stores, bob, "ctx-1", "t-b-1");

    expect(await deleteUserConversations(stores, leaver)).toEqual({ conversations: 2, tasks: 3 });
    for (const contextId of ["ctx-1", "ctx-2"])
      expect(await checkpointOf(stores, leaver, contextId)).toBeUndefined();
    expect(await stores.tasks.taskIdsIn(resolveUserScope(contextOf(leaver)), "ctx-1")).toEqual([]);
    expect(await stores.pushConfigs.load("t-l-3", contextOf(leaver))).toEqual([]);
    expect(await checkpointOf(stores, bob, "ctx-1")).toBeDefined();
    expect(await stores.tasks.load("t-b-1", contextOf(bob))).toBeDefined();
    // Nothing left: a second time finds nothing.
    expect(await deleteUserConversations(stores, leaver)).toEqual({ conversations: 0, tasks: 0 });
  });
});
