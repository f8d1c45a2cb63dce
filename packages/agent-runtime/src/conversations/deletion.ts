import { resolveUserScope, ServerCallContext, type TaskStore, type User } from "@a2a-js/sdk/server";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { collectionsFor } from "@switchboard/contract";
import type { Db } from "mongodb";
import { threadIdFor } from "../auth/caller.js";
import type { DeletionHook } from "../extension.js";

/**
 * What deleting one conversation removed from an agent (the answer to DELETE
 * /conversations/:contextId), with what the agent's deletion hooks added (see {@link DeletionHook}).
 */
export interface DeletedConversation {
  agent: string;
  contextId: string;
  checkpoints: "deleted";
  tasks: number;
  [added: string]: unknown;
}

export interface ConversationStore {
  agent: string;
  checkpointer: BaseCheckpointSaver;
  db: Db | undefined;
  /** The A2A tasks, kept per caller: what lists and histories of conversations are read from. */
  tasks: TaskStore;
  /** The agent's own steps in a deletion (the supervisor's: passing it on to its subagents). */
  hooks: DeletionHook[];
}

/**
 * Deletes one conversation of the calling user from this agent: its checkpoints and pending
 * writes, its A2A tasks and their push-notification configs, and any lease; then the agent's own
 * deletion hooks run.
 */
export async function deleteConversation(
  store: ConversationStore,
  contextId: string,
  user: User,
): Promise<DeletedConversation> {
  const threadId = threadIdFor(contextId, user);
  await store.checkpointer.deleteThread(threadId);
  let tasks = 0;
  if (store.db) {
    const owner = resolveUserScope(new ServerCallContext({ user }));
    const names = collectionsFor(store.agent);
    const taskIds = await store.db
      .collection<{ taskId: string }>(names.tasks)
      .distinct("taskId", { owner, contextId });
    await store.db.collection(names.pushConfigs).deleteMany({ owner, taskId: { $in: taskIds } });
    tasks = (await store.db.collection(names.tasks).deleteMany({ owner, contextId })).deletedCount;
    await store.db.collection<{ _id: string }>(names.locks).deleteOne({ _id: threadId });
  }
  const own = { agent: store.agent, contextId, checkpoints: "deleted" as const, tasks };
  const added = await Promise.all(store.hooks.map((hook) => hook(contextId, user)));
  // The agent's own fields come first, and no hook replaces them.
  return { ...own, ...Object.assign({}, ...added), ...own };
}
