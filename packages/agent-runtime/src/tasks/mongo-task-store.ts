import { type ListTasksRequest, type ListTasksResponse, Task, TaskState } from "@a2a-js/sdk";
import { resolveUserScope, type ServerCallContext, type TaskStore } from "@a2a-js/sdk/server";
import { collectionsFor } from "@switchboard/contract";
import type { Collection, Db } from "mongodb";
import { failedTask } from "./failed-task.js";
import { KnownRevisions } from "./known-revisions.js";
import { mongoUnreachable, unavailableAsError } from "./mongo-errors.js";
import {
  atRevision,
  finished,
  holdsBack,
  type JsonTask,
  type Stored,
  storedOf,
  type TaskDocument,
  taskDocument,
  turnRunning,
} from "./task-document.js";
import { DEFAULT_PAGE_SIZE, encodePageToken, listFilter, pageFilter } from "./task-list.js";
import { mergeWritten } from "./task-merge.js";

/** A task this process is writing while a turn runs on it. */
interface ActiveTask {
  id: string;
  owner: string;
  /** Its newest version (protocol JSON), which `load` hands out, and that version's state. */
  json: JsonTask;
  state: number;
  /** `json` is newer than what MongoDB holds. */
  dirty: boolean;
  /** What MongoDB holds; undefined when this process has not read or written it. */
  stored: Stored | undefined;
  timer?: NodeJS.Timeout;
  /** Failed writes since the last one that succeeded. */
  failures: number;
  /** Writes of one task go out one after another. */
  writes: Promise<void>;
}

/** Progress within a state (status messages, streamed answer text) reaches MongoDB this late at most. */
export const PROGRESS_WRITE_MS = 250;
/** A write that failed because MongoDB could not be reached is tried again this much later… */
const RETRY_WRITE_MS = 1_000;
/** …this many times at most. */
const WRITE_RETRIES = 30;
/** How many tasks' last-read revisions are remembered for their next write. */
const KNOWN_REVISIONS = 1000;
const CONFLICT_RETRIES = 5;

/**
 * A2A tasks in MongoDB (`tasks_<agent>`, beside the checkpoints), so tasks/get, an approval by
 * taskId, a restart and a second replica all see the same tasks. Each caller sees only their own
 * tasks, as with the SDK's in-memory store.
 *
 * The SDK reads a task back before each of its events and writes it after: about fifteen round
 * trips per turn. Here a task a turn is running on is kept in memory from its first write until its
 * turn ends (it waits for the user, or is finished), so those reads cost nothing; a change of state
 * is written at once, and progress within a state (tool calls, streamed answer text) at most
 * {@link PROGRESS_WRITE_MS} later or with the next change of state, whichever comes first. So a
 * turn's answer, question or failure is in MongoDB before anyone is told of it. Every write is
 * conditional on the revision last seen: a write by someone else meanwhile (another replica
 * canceling the task, or adding a message to it) is read and merged, and a task that was finished
 * or deleted meanwhile stays as it is, as the SDK's read-before-write would leave it.
 */
export class MongoTaskStore implements TaskStore {
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
    const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    if (!entry) {
      const known = this.known.take(id);
      const stored = known === "new" ? null : known;
      entry = { id, owner, json: {}, state, dirty: false, stored, failures: 0, writes: Promise.resolve() };
      this.active.set(id, entry);
    }
    entry.json = Task.toJSON(task) as JsonTask;
    entry.state = state;
    entry.dirty = true;
    if (holdsBack(entry.stored, state)) {
      this.flushLater(entry, PROGRESS_WRITE_MS);
      return;
    }
    await this.flush(entry);
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
    // What this process holds back is written first, so the list shows it.
    await Promise.allSettled([...this.active.values()].map((entry) => this.flush(entry)));
    return unavailableAsError(() => this.query(params, context));
  }

  private flushLater(entry: ActiveTask, ms: number): void {
    entry.timer ??= setTimeout(() => void this.flush(entry).catch(() => undefined), ms);
    entry.timer.unref();
  }

  /** Writes the task's newest version if MongoDB does not have it yet (after earlier writes). */
  private flush(entry: ActiveTask): Promise<void> {
    const next = entry.writes.then(() => unavailableAsError(() => this.write(entry)));
    entry.writes = next.catch(() => undefined);
    return next;
  }

  private async write(entry: ActiveTask): Promise<void> {
    clearTimeout(entry.timer);
    entry.timer = undefined;
    // Evicted (its turn ended, or it was finished or deleted elsewhere): nothing left to write.
    if (!entry.dirty || this.active.get(entry.id) !== entry) return;
    entry.dirty = false;
    let version = { json: entry.json, state: entry.state };
    try {
      for (let attempt = 0; !(await this.writeOnce(entry, version.json, version.state)); attempt++) {
        // Someone else wrote the task since this process last saw it in `believed` state.
        const believed = entry.stored?.state;
        const current = await this.collection.findOne({ _id: entry.id });
        entry.stored = storedOf(current);
        if (!current || finished(current.state)) {
          // Deleted or finished meanwhile: it stays so (the SDK, reading it first, drops the update).
          this.evict(entry);
          return;
        }
        if (attempt >= CONFLICT_RETRIES)
          throw new Error(`task ${entry.id} keeps changing under concurrent writes`);
        version = mergeWritten(version, current, believed);
        // A newer version saved meanwhile gets their changes too.
        const newest = entry.dirty
          ? mergeWritten({ json: entry.json, state: entry.state }, current, believed)
          : version;
        entry.json = newest.json;
        entry.state = newest.state;
      }
    } catch (error) {
      // Kept, and tried again: the newest version reaches MongoDB once it is back.
      entry.dirty = true;
      if (mongoUnreachable(error) && ++entry.failures <= WRITE_RETRIES)
        this.flushLater(entry, RETRY_WRITE_MS);
      throw error;
    }
    entry.failures = 0;
    // Its turn is over: MongoDB holds it all, and the next turn may run on another replica.
    if (!entry.dirty && !turnRunning(version.state)) this.evict(entry);
  }

  /** One conditional write: false when the document is not at the revision last seen. */
  private async writeOnce(entry: ActiveTask, json: JsonTask, state: number): Promise<boolean> {
    const rev = (entry.stored?.rev ?? 0) + 1;
    const document = taskDocument(entry.id, entry.owner, json, state, rev);
    if (!entry.stored) {
      try {
        await this.collection.insertOne(document);
      } catch (error) {
        if ((error as { code?: number }).code === 11000) return false;
        throw error;
      }
    } else {
      const result = await this.collection.replaceOne(atRevision(entry.id, entry.stored.rev), document);
      if (result.matchedCount === 0) return false;
    }
    entry.stored = { rev, state };
    return true;
  }

  private evict(entry: ActiveTask): void {
    clearTimeout(entry.timer);
    if (this.active.get(entry.id) === entry) this.active.delete(entry.id);
    if (entry.stored !== undefined) this.known.remember(entry.id, entry.stored);
  }

  private async query(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
    const filter = listFilter(params, resolveUserScope(context));
    const totalSize = await this.collection.countDocuments(filter);
    const documents = await this.collection
      .find(pageFilter(filter, params.pageToken))
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
