import { type ListTasksRequest, type ListTasksResponse, Task, TaskState } from "@a2a-js/sdk";
import { resolveUserScope, type ServerCallContext } from "@a2a-js/sdk/server";
import { collectionsFor } from "@switchboard/contract";
import type { Collection, Db } from "mongodb";
import { ActiveTask } from "./active-task.js";
import type { ConversationTasks, GroupsConversations } from "./conversation-tasks.js";
import { failedTask } from "./failed-task.js";
import { KnownRevisions } from "./known-revisions.js";
import { unavailableAsError } from "./mongo-errors.js";
import {
  atRevision,
  finished,
  type JsonTask,
  type Stored,
  storedOf,
  type TaskDocument,
} from "./task-document.js";
import { DEFAULT_PAGE_SIZE, encodePageToken, listFilter, pageFilter } from "./task-list.js";
import type { AgentTaskStore } from "./task-parts.js";

export { PROGRESS_WRITE_MS } from "./active-task.js";

/** How many tasks' last-read revisions are remembered for their next write. */
const KNOWN_REVISIONS = 1000;

/** What aggregating a caller's tasks by conversation gives, per conversation. */
interface ConversationRow {
  _id: string;
  updatedAt: string;
  state: number;
  count: number;
  history?: unknown[];
}

/**
 * A2A tasks in MongoDB (`tasks_<agent>`, beside the checkpoints), so tasks/get, an approval by
 * taskId, a restart and a second replica all see the same tasks. Each caller sees only their own
 * tasks, as with the SDK's in-memory store.
 *
 * The SDK reads a task back before each of its events and writes it after: about fifteen round
 * trips per turn. Here a task a turn is running on is kept in memory from its first write until its
 * turn ends (it waits for the user, or is finished), so those reads cost nothing; a change of state
 * is written at once, and the turn's progress (its start from submitted to working, tool calls,
 * streamed answer text) at most {@link PROGRESS_WRITE_MS} later or with the next change of state,
 * whichever comes first. So a turn's answer, question or failure is in MongoDB before anyone is
 * told of it. Every write is conditional on the revision last seen: a write by someone else
 * meanwhile (another replica canceling the task, or adding a message to it) is read and merged, and
 * a task that was finished or deleted meanwhile stays as it is, as the SDK's read-before-write
 * would leave it.
 */
export class MongoTaskStore implements AgentTaskStore, GroupsConversations {
  private readonly collection: Collection<TaskDocument>;
  private readonly active = new Map<string, ActiveTask>();
  /** Tasks not in `active`: only "new" ever answers a `load`. */
  private readonly known = new KnownRevisions(KNOWN_REVISIONS);

  constructor(db: Db, collectionName: string) {
    this.collection = db.collection<TaskDocument>(collectionName);
  }

  static async create(db: Db, agent: string): Promise<MongoTaskStore> {
    const store = new MongoTaskStore(db, collectionsFor(agent).tasks);
    await store.collection.createIndex(
      { owner: 1, contextId: 1, timestamp: -1 },
      { name: "owner_context_time" },
    );
    return store;
  }

  /**
   * The executor is about to publish a task that was never stored (the SDK gave it a fresh id):
   * the SDK's read of it before the first write needs no round trip.
   */
  willCreate(taskId: string, context: ServerCallContext): void {
    this.known.remember(`${resolveUserScope(context)}/${taskId}`, "new");
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const owner = resolveUserScope(context);
    const id = `${owner}/${task.id}`;
    let entry = this.active.get(id);
    if (!entry) {
      const known = this.known.take(id);
      const stored = known === "new" ? null : known;
      entry = new ActiveTask(id, owner, stored, this.collection, (done, stored) => this.evict(done, stored));
      this.active.set(id, entry);
    }
    await entry.save(Task.toJSON(task) as JsonTask, task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED);
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const id = `${resolveUserScope(context)}/${taskId}`;
    const entry = this.active.get(id);
    if (entry) return Task.fromJSON(entry.json);
    if (this.known.get(id) === "new") return undefined;
    return unavailableAsError(async () => {
      const document = await this.collection.findOne({ _id: id });
      this.known.remember(id, storedOf(document));
      return document ? Task.fromJSON(document.task) : undefined;
    });
  }

  /**
   * The task as MongoDB holds it now, with its revision: what a subscriber on a replica that does
   * not run the task follows (see task-follower.ts).
   */
  async readStored(
    taskId: string,
    context: ServerCallContext,
  ): Promise<{ rev: number; state: number; task: Task } | undefined> {
    const document = await unavailableAsError(() =>
      this.collection.findOne({ _id: `${resolveUserScope(context)}/${taskId}` }),
    );
    return document
      ? { rev: document.rev ?? 0, state: document.state, task: Task.fromJSON(document.task) }
      : undefined;
  }

  /**
   * Fails a task whose turn nobody runs any more (its replica died), if it is still at revision
   * `rev`: the failed task, or undefined when it changed meanwhile (it is running after all).
   */
  async failAbandoned(
    taskId: string,
    context: ServerCallContext,
    rev: number,
    reason: string,
  ): Promise<Task | undefined> {
    const id = `${resolveUserScope(context)}/${taskId}`;
    const current = await this.collection.findOne(atRevision(id, rev));
    if (!current || finished(current.state)) return undefined;
    const failed = failedTask(current, rev, reason, new Date().toISOString());
    const result = await this.collection.replaceOne(atRevision(id, rev), failed.document);
    return result.matchedCount === 1 ? failed.task : undefined;
  }

  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    await this.flushHeldBack(resolveUserScope(context));
    return unavailableAsError(() => this.query(params, context));
  }

  /**
   * The caller's conversations among their newest `limit` tasks, grouped in MongoDB (one
   * aggregation, however many tasks): the newest first, each with its newest task's time and state,
   * its number of tasks and its oldest task's history (what its title is taken from).
   */
  async conversationsOf(context: ServerCallContext, limit: number): Promise<ConversationTasks[]> {
    const owner = resolveUserScope(context);
    await this.flushHeldBack(owner);
    const rows = await unavailableAsError(() =>
      this.collection
        .aggregate<ConversationRow>([
          { $match: { owner } },
          { $sort: { timestamp: -1, taskId: -1 } },
          { $limit: limit },
          {
            $group: {
              _id: "$contextId",
              updatedAt: { $first: "$timestamp" },
              newestTask: { $first: "$taskId" },
              state: { $first: "$state" },
              count: { $sum: 1 },
              history: { $last: "$task.history" },
            },
          },
          { $sort: { updatedAt: -1, newestTask: -1 } },
        ])
        .toArray(),
    );
    return rows.map((row) => ({
      contextId: row._id,
      updatedAt: row.updatedAt,
      state: row.state,
      count: row.count,
      oldest: Task.fromJSON({ id: "", contextId: row._id, history: row.history ?? [] }),
    }));
  }

  async taskIdsIn(owner: string, contextId: string): Promise<string[]> {
    return this.collection.distinct("taskId", { owner, contextId });
  }

  async deleteConversation(owner: string, contextId: string): Promise<number> {
    return (await this.collection.deleteMany({ owner, contextId })).deletedCount;
  }

  async deleteUser(owner: string): Promise<number> {
    return (await this.collection.deleteMany({ owner })).deletedCount;
  }

  /** What this process holds back of the caller's tasks is written first, so their list shows it. */
  private async flushHeldBack(owner: string): Promise<void> {
    const theirs = [...this.active.values()].filter((entry) => entry.owner === owner);
    await Promise.allSettled(theirs.map((entry) => entry.flush()));
  }

  /** A task whose turn is over leaves `active`; what MongoDB holds of it is remembered for its next write. */
  private evict(entry: ActiveTask, stored: Stored | undefined): void {
    if (this.active.get(entry.id) === entry) this.active.delete(entry.id);
    if (stored !== undefined) this.known.remember(entry.id, stored);
  }

  private async query(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
    const filter = listFilter(params, resolveUserScope(context));
    const totalSize = await this.collection.countDocuments(filter);
    // A list without artifacts (a conversation list) leaves them, often the bulk of a task, in MongoDB.
    const projection = params.includeArtifacts ? undefined : { "task.artifacts": 0 };
    const documents = await this.collection
      .find(pageFilter(filter, params.pageToken), projection ? { projection } : {})
      .sort({ timestamp: -1, taskId: -1 })
      .limit(pageSize + 1)
      .toArray();
    const shown = documents.slice(0, pageSize);
    const last = shown.at(-1);
    return {
      tasks: shown.map((document) => {
        const task = Task.fromJSON(document.task);
        if (!params.includeArtifacts) task.artifacts = [];
        return task;
      }),
      nextPageToken:
        documents.length > pageSize && last
          ? encodePageToken({ timestamp: last.timestamp, id: last.taskId })
          : "",
      pageSize,
      totalSize,
    };
  }
}
