import { type ListTasksRequest, type ListTasksResponse, Task, TaskState } from "@a2a-js/sdk";
import { resolveUserScope, type ServerCallContext, type TaskStore } from "@a2a-js/sdk/server";
import type { Collection, Db, Filter } from "mongodb";

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
}

const DEFAULT_PAGE_SIZE = 50;
/** A stored task stays well inside MongoDB's 16 MB document limit. */
const MAX_TASK_BYTES = 8 * 1024 * 1024;
/** What is kept of each oversized text part in the stored copy of a task. */
const KEPT_PART_CHARS = 64 * 1024;

/**
 * A2A tasks in MongoDB (`tasks_<agent>`, beside the checkpoints), so tasks/get, an approval by
 * taskId, a restart and a second replica all see the same tasks. Each caller sees only their own
 * tasks, as with the SDK's in-memory store.
 */
export class MongoTaskStore implements TaskStore {
  private readonly collection: Collection<TaskDocument>;

  constructor(db: Db, collectionName: string) {
    this.collection = db.collection<TaskDocument>(collectionName);
  }

  static async create(db: Db, agent: string): Promise<MongoTaskStore> {
    const store = new MongoTaskStore(db, `tasks_${agent}`);
    await store.collection.createIndex(
      { owner: 1, contextId: 1, timestamp: -1 },
      { name: "owner_context_time" },
    );
    return store;
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    await unavailableAsError(() => this.write(task, context));
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return unavailableAsError(async () => {
      const document = await this.collection.findOne({ _id: `${resolveUserScope(context)}/${taskId}` });
      return document ? Task.fromJSON(document.task) : undefined;
    });
  }

  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return unavailableAsError(() => this.query(params, context));
  }

  private async write(task: Task, context: ServerCallContext): Promise<void> {
    const owner = resolveUserScope(context);
    const document: TaskDocument = {
      _id: `${owner}/${task.id}`,
      owner,
      taskId: task.id,
      contextId: task.contextId,
      state: task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED,
      timestamp: task.status?.timestamp ?? "",
      task: storableTask(Task.toJSON(task)),
    };
    await this.collection.replaceOne({ _id: document._id }, document, { upsert: true });
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
interface JsonTask {
  history?: Array<{ parts?: JsonPart[] }>;
  artifacts?: Array<{ parts?: JsonPart[] }>;
}

/**
 * The task as stored: when its JSON would be too large for one document, long text parts (a
 * pasted log, a huge answer) are cut in the stored copy, with a marker saying so.
 */
function storableTask(json: unknown): unknown {
  if (Buffer.byteLength(JSON.stringify(json)) <= MAX_TASK_BYTES) return json;
  const task = json as JsonTask;
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
