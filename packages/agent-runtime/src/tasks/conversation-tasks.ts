import type { Task, TaskState } from "@a2a-js/sdk";
import type { ServerCallContext } from "@a2a-js/sdk/server";

// What a list of a caller's conversations is made from: their tasks, grouped by conversation.

/** One conversation's tasks, as a list of conversations shows them. */
export interface ConversationTasks {
  contextId: string;
  /** Its newest task's status time and state. */
  updatedAt: string;
  state: TaskState;
  count: number;
  /** Its oldest task (at least its history): the title is its first message. */
  oldest: Task;
}

/** A task store that groups a caller's tasks by conversation itself (MongoTaskStore: in MongoDB). */
export interface GroupsConversations {
  /** The caller's conversations among their newest `limit` tasks, newest first. */
  conversationsOf(context: ServerCallContext, limit: number): Promise<ConversationTasks[]>;
}
