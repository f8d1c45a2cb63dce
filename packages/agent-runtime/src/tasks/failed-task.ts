import { Task, TaskState } from "@a2a-js/sdk";
import { agentMessage } from "../context/a2a-messages.js";
import { storableTask, type TaskDocument } from "./task-document.js";

/**
 * A stored task, read at revision `rev`, failed with `reason` (its turn's replica is gone): the
 * task as the caller reads it, and the document that replaces the stored one.
 */
export function failedTask(
  current: TaskDocument,
  rev: number,
  reason: string,
  timestamp: string,
): { task: Task; document: TaskDocument } {
  const task = Task.fromJSON(current.task);
  task.status = {
    state: TaskState.TASK_STATE_FAILED,
    message: agentMessage(reason, { taskId: task.id, contextId: task.contextId }),
    timestamp,
  };
  const document: TaskDocument = {
    ...current,
    state: TaskState.TASK_STATE_FAILED,
    timestamp,
    task: storableTask(Task.toJSON(task) as object),
    rev: rev + 1,
  };
  return { task, document };
}
