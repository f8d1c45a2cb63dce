import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";

// What the runtime asks of an agent's task store beyond the SDK's TaskStore: a hint before a new
// task's first write, and deleting its part of a conversation and of a user. Both backends
// (MongoTaskStore, MemoryTaskStore) keep these, asserted by one suite (test/stores/).

/** An agent's A2A tasks, keyed by owner (the SDK's `resolveUserScope`, the same key as thread prefixes). */
export interface AgentTaskStore extends TaskStore {
  /** A task the SDK has just given an id is about to be written (its first read needs no round trip). */
  willCreate(taskId: string, context: ServerCallContext): void;
  /** The ids of the owner's tasks in one conversation. */
  taskIdsIn(owner: string, contextId: string): Promise<string[]>;
  /** Deletes the owner's tasks in one conversation; how many there were. */
  deleteConversation(owner: string, contextId: string): Promise<number>;
  /** Deletes every task of the owner; how many there were. */
  deleteUser(owner: string): Promise<number>;
}
