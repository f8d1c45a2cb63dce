import { TaskState } from "@a2a-js/sdk";
import type { Filter } from "mongodb";

// What a task looks like in `tasks_<agent>`: the document's fields, the states that matter to a
// write, and the revision a conditional write is made against. Pure: nothing here talks to MongoDB.

export interface TaskDocument {
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
export type Stored = { rev: number; state: number } | null;

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
/** The fields of a task's protocol JSON that storing and merging read. */
export interface JsonTask {
  id?: string;
  contextId?: string;
  status?: { state?: unknown; timestamp?: string };
  history?: JsonMessage[];
  artifacts?: JsonArtifact[];
  metadata?: Record<string, unknown>;
}

/** A stored task stays well inside MongoDB's 16 MB document limit. */
const MAX_TASK_BYTES = 8 * 1024 * 1024;
/** What is kept of each oversized text part in the stored copy of a task. */
const KEPT_PART_CHARS = 64 * 1024;

/** States a turn passes through; a task in any other state waits for the user or is finished. */
const RUNNING = new Set<number>([
  TaskState.TASK_STATE_UNSPECIFIED,
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
]);
const TERMINAL = new Set<number>([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

/** Whether a task in this state has a turn running on it (else it waits for the user or is finished). */
export function turnRunning(state: number): boolean {
  return RUNNING.has(state);
}

/** Whether a task in this state is finished: nothing changes it any more. */
export function finished(state: number): boolean {
  return TERMINAL.has(state);
}

/**
 * Whether a save can be held back (written a little later, with whatever follows it): progress
 * within a state MongoDB already holds, or of a turn it holds as running (submitted becoming
 * working). Any other change of state, and a finished task, are written at once.
 */
export function holdsBack(stored: Stored | undefined, state: number): boolean {
  if (!stored || finished(state)) return false;
  return stored.state === state || (turnRunning(stored.state) && turnRunning(state));
}

/** The revision a document was read at: documents written before revisions were added count as 0. */
export function storedOf(document: Pick<TaskDocument, "rev" | "state"> | null): Stored {
  return document ? { rev: document.rev ?? 0, state: document.state } : null;
}

/** The document `_id` at revision `rev` (0: a document that has no revision field). */
export function atRevision(id: string, rev: number): Filter<TaskDocument> {
  return { _id: id, rev: rev === 0 ? { $exists: false } : rev };
}

/** The document to write for a task's version at revision `rev`. */
export function taskDocument(
  id: string,
  owner: string,
  json: JsonTask,
  state: number,
  rev: number,
): TaskDocument {
  return {
    _id: id,
    owner,
    taskId: String(json.id ?? ""),
    contextId: String(json.contextId ?? ""),
    state,
    timestamp: json.status?.timestamp ?? "",
    task: storableTask(json),
    rev,
  };
}

/**
 * The task as stored: when its JSON would be too large for one document, long text parts (a
 * pasted log, a huge answer) are cut in the stored copy, with a marker saying so.
 */
export function storableTask(json: JsonTask): JsonTask {
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
