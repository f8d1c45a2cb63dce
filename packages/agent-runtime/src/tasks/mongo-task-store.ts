import { type ListTasksRequest, type ListTasksResponse, Task, TaskState } from "@a2a-js/sdk";
import { resolveUserScope, type ServerCallContext, type TaskStore } from "@a2a-js/sdk/server";
import { collectionsFor } from "@switchboard/contract";
import type { Collection, Db, Filter } from "mongodb";
import { agentMessage } from "../turn/messages.js";

interface TaskDocument {
  _id: string;
  owner: string;
  taskId: string;
  contextId: string;
  state: number;
  /** The status timestamp: the list order, newest first. */
  timestamp: string;
  /** The task in the protocol's JSON form. */
  task: unknown;
  /** Counts the writes of the document (absent in documents written before it was added). */
  rev?: number;
}

/** What MongoDB holds of a task, as this process last saw it: absent (null), or its revision and state. */
type Stored = { rev: number; state: number } | null;

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

const DEFAULT_PAGE_SIZE = 50;
/** A stored task stays well inside MongoDB's 16 MB document limit. */
const MAX_TASK_BYTES = 8 * 1024 * 1024;
/** What is kept of each oversized text part in the stored copy of a task. */
const KEPT_PART_CHARS = 64 * 1024;
/** Progress within a state (status messages, streamed answer text) reaches MongoDB this late at most. */
export const PROGRESS_WRITE_MS = 250;
/** A write that failed because MongoDB could not be reached is tried again this much later… */
const RETRY_WRITE_MS = 1_000;
/** …this many times at most. */
const WRITE_RETRIES = 30;
const UNREACHABLE = new Set(["MongoServerSelectionError", "MongoNetworkError", "MongoNetworkTimeoutError"]);
/** How many tasks' last-read revisions are remembered for their next write. */
const KNOWN_REVISIONS = 1000;
const CONFLICT_RETRIES = 5;

/** States a turn passes through; a task in any other state waits for the user or is finished. */
const RUNNING = new Set<number>([
  TaskState.TASK_STATE_UNSPECIFIED,
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
]);
/** Whether a task in this state has a turn running on it (else it waits for the user or is finished). */
export function turnRunning(state: number): boolean {
  return RUNNING.has(state);
}
const TERMINAL = new Set<number>([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

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
  /**
   * What MongoDB held of tasks not in `active` when last read (for their next write), or "new"
   * for a task about to be created. Only "new" ever answers a `load`.
   */
  private readonly known = new Map<string, Stored | "new">();

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
    this.remember(`${resolveUserScope(context)}/${taskId}`, "new");
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const owner = resolveUserScope(context);
    const id = `${owner}/${task.id}`;
    let entry = this.active.get(id);
    const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    if (!entry) {
      const known = this.known.get(id);
      const stored = known === "new" ? null : known;
      entry = { id, owner, json: {}, state, dirty: false, stored, failures: 0, writes: Promise.resolve() };
      this.known.delete(id);
      this.active.set(id, entry);
    }
    entry.json = Task.toJSON(task) as JsonTask;
    entry.state = state;
    entry.dirty = true;
    if (entry.stored?.state === state && !TERMINAL.has(state)) {
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
      this.remember(id, document ? { rev: document.rev ?? 0, state: document.state } : null);
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
    const current = await this.collection.findOne({ _id: id, rev: rev === 0 ? { $exists: false } : rev });
    if (!current || TERMINAL.has(current.state)) return undefined;
    const task = Task.fromJSON(current.task);
    const timestamp = new Date().toISOString();
    task.status = {
      state: TaskState.TASK_STATE_FAILED,
      message: agentMessage(reason, { taskId: task.id, contextId: task.contextId }),
      timestamp,
    };
    const result = await this.collection.replaceOne(
      { _id: id, rev: rev === 0 ? { $exists: false } : rev },
      {
        ...current,
        state: TaskState.TASK_STATE_FAILED,
        timestamp,
        task: storableTask(Task.toJSON(task) as JsonTask),
        rev: rev + 1,
      },
    );
    return result.matchedCount === 1 ? task : undefined;
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
    let json = entry.json;
    let state = entry.state;
    try {
      for (let attempt = 0; !(await this.writeOnce(entry, json, state)); attempt++) {
        // Someone else wrote the task since this process last saw it in `believed` state.
        const believed = entry.stored?.state;
        const current = await this.collection.findOne({ _id: entry.id });
        entry.stored = current ? { rev: current.rev ?? 0, state: current.state } : null;
        if (!current || TERMINAL.has(current.state)) {
          // Deleted or finished meanwhile: it stays so (the SDK, reading it first, drops the update).
          this.evict(entry);
          return;
        }
        if (attempt >= CONFLICT_RETRIES)
          throw new Error(`task ${entry.id} keeps changing under concurrent writes`);
        json = mergedTask(json, current, state !== believed);
        if (state === believed) state = current.state;
        if (!entry.dirty) {
          entry.json = json;
          entry.state = state;
        } else {
          // A newer version saved meanwhile gets their changes too.
          entry.json = mergedTask(entry.json, current, entry.state !== believed);
          if (entry.state === believed) entry.state = current.state;
        }
      }
    } catch (error) {
      // Kept, and tried again: the newest version reaches MongoDB once it is back.
      entry.dirty = true;
      const name = (error as { name?: string }).name ?? "";
      if (UNREACHABLE.has(name) && ++entry.failures <= WRITE_RETRIES) this.flushLater(entry, RETRY_WRITE_MS);
      throw error;
    }
    entry.failures = 0;
    // Its turn is over: MongoDB holds it all, and the next turn may run on another replica.
    if (!entry.dirty && !RUNNING.has(state)) this.evict(entry);
  }

  /** One conditional write: false when the document is not at the revision last seen. */
  private async writeOnce(entry: ActiveTask, json: JsonTask, state: number): Promise<boolean> {
    const rev = (entry.stored?.rev ?? 0) + 1;
    const document: TaskDocument = {
      _id: entry.id,
      owner: entry.owner,
      taskId: String(json.id ?? ""),
      contextId: String(json.contextId ?? ""),
      state,
      timestamp: json.status?.timestamp ?? "",
      task: storableTask(json),
      rev,
    };
    if (!entry.stored) {
      try {
        await this.collection.insertOne(document);
      } catch (error) {
        if ((error as { code?: number }).code === 11000) return false;
        throw error;
      }
    } else {
      const previous = entry.stored.rev;
      const filter: Filter<TaskDocument> = {
        _id: entry.id,
        rev: previous === 0 ? { $exists: false } : previous,
      };
      const result = await this.collection.replaceOne(filter, document);
      if (result.matchedCount === 0) return false;
    }
    entry.stored = { rev, state };
    return true;
  }

  private evict(entry: ActiveTask): void {
    clearTimeout(entry.timer);
    if (this.active.get(entry.id) === entry) this.active.delete(entry.id);
    if (entry.stored !== undefined) this.remember(entry.id, entry.stored);
  }

  private remember(id: string, stored: Stored | "new"): void {
    this.known.delete(id);
    this.known.set(id, stored);
    if (this.known.size > KNOWN_REVISIONS) {
      const [oldest] = this.known.keys();
      if (oldest !== undefined) this.known.delete(oldest);
    }
  }

  private async query(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
    const filter: Filter<TaskDocument> = { owner: resolveUserScope(context) };
    if (params.contextId) filter.contextId = params.contextId;
    if (params.status !== undefined && params.status !== TaskState.TASK_STATE_UNSPECIFIED)
      filter.state = params.status;
    if (params.statusTimestampAfter) filter.timestamp = { $gt: params.statusTimestampAfter };
    const totalSize = await this.collection.countDocuments(filter);

    const cursor = params.pageToken ? decodePageToken(params.pageToken) : undefined;
    const page = cursor
      ? {
          ...filter,
          $or: [
            { timestamp: { $lt: cursor.timestamp } },
            { timestamp: cursor.timestamp, taskId: { $lt: cursor.id } },
          ],
        }
      : filter;
    const documents = await this.collection
      .find(page)
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

interface JsonPart {
  text?: string;
}
interface JsonMessage {
  messageId?: string;
  parts?: JsonPart[];
}
interface JsonArtifact {
  artifactId?: string;
  parts?: JsonPart[];
}
interface JsonTask {
  id?: string;
  contextId?: string;
  status?: { state?: unknown; timestamp?: string };
  history?: JsonMessage[];
  artifacts?: JsonArtifact[];
  metadata?: Record<string, unknown>;
}

/**
 * This process's version of a task merged into one written meanwhile by someone else: theirs
 * plus the messages and artifacts only ours has (ours win for the same artifact). The status is
 * ours only when ours changes the state: progress held back here never undoes a change of state
 * made elsewhere meanwhile.
 */
function mergedTask(ours: JsonTask, current: TaskDocument, oursChangesState: boolean): JsonTask {
  const theirs = current.task as JsonTask;
  const theirMessages = new Set((theirs.history ?? []).map((message) => message.messageId));
  const ourArtifacts = new Map((ours.artifacts ?? []).map((artifact) => [artifact.artifactId, artifact]));
  const theirArtifacts = new Set((theirs.artifacts ?? []).map((artifact) => artifact.artifactId));
  return {
    ...ours,
    status: oursChangesState ? ours.status : theirs.status,
    history: [
      ...(theirs.history ?? []),
      ...(ours.history ?? []).filter((message) => !theirMessages.has(message.messageId)),
    ],
    artifacts: [
      ...(theirs.artifacts ?? []).map((artifact) => ourArtifacts.get(artifact.artifactId) ?? artifact),
      ...(ours.artifacts ?? []).filter((artifact) => !theirArtifacts.has(artifact.artifactId)),
    ],
    metadata: { ...theirs.metadata, ...ours.metadata },
  };
}

/**
 * The task as stored: when its JSON would be too large for one document, long text parts (a
 * pasted log, a huge answer) are cut in the stored copy, with a marker saying so.
 */
function storableTask(json: JsonTask): JsonTask {
  if (Buffer.byteLength(JSON.stringify(json)) <= MAX_TASK_BYTES) return json;
  const task = structuredClone(json);
  for (const holder of [...(task.history ?? []), ...(task.artifacts ?? [])]) {
    for (const part of holder.parts ?? []) {
      if (typeof part.text === "string" && part.text.length > KEPT_PART_CHARS) {
        const omitted = part.text.length - KEPT_PART_CHARS;
        part.text = `${part.text.slice(0, KEPT_PART_CHARS)}\n[… ${omitted} characters omitted from the stored copy]`;
      }
    }
  }
  return task;
}

/** A store that cannot be reached is named as such; the SDK passes the message to the caller. */
async function unavailableAsError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const name = (error as { name?: string }).name ?? "";
    if (!name.startsWith("Mongo")) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Cannot reach MongoDB to store this A2A task (${reason}); try again once MongoDB is back.`,
    );
  }
}

function encodePageToken(cursor: { timestamp: string; id: string }): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

function decodePageToken(token: string): { timestamp: string; id: string } {
  try {
    const cursor = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
    if (typeof cursor?.timestamp === "string" && typeof cursor?.id === "string") return cursor;
  } catch {
    // fall through
  }
  return { timestamp: "", id: "" };
}
