import { type ListTasksRequest, type ListTasksResponse, Task } from "@a2a-js/sdk";
import { resolveUserScope, type ServerCallContext } from "@a2a-js/sdk/server";
import { DEFAULT_PAGE_SIZE, decodePageToken, encodePageToken } from "./task-list.js";
import type { AgentTaskStore } from "./task-parts.js";

interface Entry {
  owner: string;
  contextId: string;
  /** The status timestamp: the list order, newest first (as in MongoDB). */
  timestamp: string;
  state: number;
  /** The task in the protocol's JSON form: what is handed out is always a copy. */
  json: unknown;
}

/**
 * A2A tasks in process memory, for the memory backend: each caller sees only their own, listed and
 * paged as {@link MongoTaskStore} lists them, and a conversation's or a caller's tasks can be
 * deleted (the SDK's in-memory store cannot delete). Gone on restart.
 */
export class MemoryTaskStore implements AgentTaskStore {
  private readonly tasks = new Map<string, Entry>();

  /** Nothing to read ahead in memory. */
  willCreate(): void {}

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const owner = resolveUserScope(context);
    this.tasks.set(keyOf(owner, task.id), {
      owner,
      contextId: task.contextId,
      timestamp: task.status?.timestamp ?? "",
      state: task.status?.state ?? 0,
      json: Task.toJSON(task),
    });
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const entry = this.tasks.get(keyOf(resolveUserScope(context), taskId));
    return entry ? Task.fromJSON(entry.json) : undefined;
  }

  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const owner = resolveUserScope(context);
    const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
    const matching = [...this.tasks.entries()]
      .filter(
        ([, entry]) =>
          entry.owner === owner &&
          (!params.contextId || entry.contextId === params.contextId) &&
          (!params.status || entry.state === params.status) &&
          (!params.statusTimestampAfter || entry.timestamp > params.statusTimestampAfter),
      )
      .map(([key, entry]) => ({ id: taskIdOf(key, owner), entry }))
      .sort((a, b) => b.entry.timestamp.localeCompare(a.entry.timestamp) || b.id.localeCompare(a.id));
    const cursor = params.pageToken ? decodePageToken(params.pageToken) : undefined;
    const after = cursor
      ? matching.filter(
          ({ id, entry }) =>
            entry.timestamp < cursor.timestamp || (entry.timestamp === cursor.timestamp && id < cursor.id),
        )
      : matching;
    const shown = after.slice(0, pageSize);
    const last = shown.at(-1);
    return {
      tasks: shown.map(({ entry }) => {
        const task = Task.fromJSON(entry.json);
        if (!params.includeArtifacts) task.artifacts = [];
        return task;
      }),
      nextPageToken:
        after.length > pageSize && last
          ? encodePageToken({ timestamp: last.entry.timestamp, id: last.id })
          : "",
      pageSize,
      totalSize: matching.length,
    };
  }

  async taskIdsIn(owner: string, contextId: string): Promise<string[]> {
    return [...this.tasks.entries()]
      .filter(([, entry]) => entry.owner === owner && entry.contextId === contextId)
      .map(([key]) => taskIdOf(key, owner));
  }

  async deleteConversation(owner: string, contextId: string): Promise<number> {
    return this.deleteWhere((entry) => entry.owner === owner && entry.contextId === contextId);
  }

  async deleteUser(owner: string): Promise<number> {
    return this.deleteWhere((entry) => entry.owner === owner);
  }

  private deleteWhere(matches: (entry: Entry) => boolean): number {
    let deleted = 0;
    for (const [key, entry] of this.tasks) {
      if (!matches(entry)) continue;
      this.tasks.delete(key);
      deleted += 1;
    }
    return deleted;
  }
}

const keyOf = (owner: string, taskId: string) => `${owner}/${taskId}`;
const taskIdOf = (key: string, owner: string) => key.slice(owner.length + 1);
