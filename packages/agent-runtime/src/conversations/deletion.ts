import { resolveUserScope, ServerCallContext, type TaskStore, type User } from "@a2a-js/sdk/server";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { collectionsFor } from "@switchboard/contract";
import type { Db } from "mongodb";
import { threadIdFor } from "../auth/caller.js";

/** What deleting one conversation removed, per agent. */
export interface DeletedConversation {
  agent: string;
  contextId: string;
  checkpoints: "deleted";
  tasks: number;
  /** Subagents the deletion was passed on to (the supervisor's), with their own results. */
  subagents?: Array<DeletedConversation | { agent: string; error: string }>;
}

/** Passes a deletion on (the supervisor to its subagents), with the caller's token. */
export type DeletionCascade = (
  contextId: string,
  token: string | undefined,
) => Promise<NonNullable<DeletedConversation["subagents"]>>;

export interface ConversationStore {
  agent: string;
  checkpointer: BaseCheckpointSaver;
  db: Db | undefined;
  /** The A2A tasks, kept per caller: what lists and histories of conversations are read from. */
  tasks: TaskStore;
  cascades: DeletionCascade[];
}

/**
 * Deletes one conversation of the calling user from this agent: its checkpoints and pending
 * writes, its A2A tasks and their push-notification configs, and any lease, then from the agents it
 * passes deletions on to.
 */
export async function deleteConversation(
  store: ConversationStore,
  contextId: string,
  user: User,
  token: string | undefined,
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
  const result: DeletedConversation = { agent: store.agent, contextId, checkpoints: "deleted", tasks };
  if (store.cascades.length > 0) {
    result.subagents = (await Promise.all(store.cascades.map((cascade) => cascade(contextId, token)))).flat();
  }
  return result;
}
