import { resolveUserScope, ServerCallContext, type User } from "@a2a-js/sdk/server";
import { threadIdFor } from "../auth/caller.js";
import type { AgentStores } from "../stores/agent-stores.js";
import { listConversations } from "./history.js";

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

/**
 * A step in deleting one of the caller's conversations (DELETE /conversations/:contextId), run
 * after this agent's own state is gone, for the verified caller (the supervisor signs each subagent
 * a token of its own for them): what it returns is added to the deletion's answer (the
 * supervisor's: `subagents`, each subagent's own answer).
 */
export type DeletionHook = (contextId: string, user: User) => Promise<Record<string, unknown>>;

/** The stores a conversation lives in: each deletes its own part of it. */
export type ConversationStores = Pick<
  AgentStores,
  "agent" | "checkpointer" | "tasks" | "pushConfigs" | "locks"
>;

/** Where an agent's conversations are, and its own steps in deleting one (the supervisor's: its subagents). */
export interface ConversationStore extends ConversationStores {
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
  const tasks = await deleteOwnConversation(store, contextId, user);
  const own = { agent: store.agent, contextId, checkpoints: "deleted" as const, tasks };
  const added = await Promise.all(store.hooks.map((hook) => hook(contextId, user)));
  // The agent's own fields come first, and no hook replaces them.
  return { ...own, ...Object.assign({}, ...added), ...own };
}

/** Listings of conversations are capped (see history.ts): erasing goes round until none is left. */
const MAX_ROUNDS = 1_000;

/**
 * Deletes every conversation of the calling user from this agent (this agent's state only: each
 * agent is asked itself), then whatever tasks and push configs of theirs are left beyond the
 * conversations listed; how many conversations and tasks there were.
 */
export async function deleteUserConversations(
  stores: ConversationStores,
  user: User,
): Promise<{ conversations: number; tasks: number }> {
  let conversations = 0;
  let tasks = 0;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const listed = await listConversations(stores.tasks, user);
    if (listed.length === 0) break;
    for (const { contextId } of listed) {
      tasks += await deleteOwnConversation(stores, contextId, user);
      conversations += 1;
    }
  }
  const owner = ownerOf(user);
  await stores.pushConfigs.deleteUser(owner);
  tasks += await stores.tasks.deleteUser(owner);
  return { conversations, tasks };
}

/** This agent's part of a conversation, each store deleting its own; how many tasks it held. */
async function deleteOwnConversation(
  stores: ConversationStores,
  contextId: string,
  user: User,
): Promise<number> {
  const threadId = threadIdFor(contextId, user);
  const owner = ownerOf(user);
  await stores.checkpointer.deleteThread(threadId);
  // The configs first: they are found through the tasks they belong to.
  await stores.pushConfigs.deleteTasks(owner, await stores.tasks.taskIdsIn(owner, contextId));
  const tasks = await stores.tasks.deleteConversation(owner, contextId);
  await stores.locks.forget(threadId);
  return tasks;
}

/** The key tasks and push configs are kept under for the caller (the SDK's user scope). */
function ownerOf(user: User): string {
  return resolveUserScope(new ServerCallContext({ user }));
}
