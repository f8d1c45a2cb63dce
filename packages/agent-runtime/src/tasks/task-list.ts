import { type ListTasksRequest, TaskState } from "@a2a-js/sdk";
import type { Filter } from "mongodb";
import type { TaskDocument } from "./task-document.js";

// tasks/list as a MongoDB query: the filter, and the page cursor (newest first, by status timestamp
// then task id) carried in the opaque page token. Pure.

export const DEFAULT_PAGE_SIZE = 50;

interface Cursor {
  timestamp: string;
  id: string;
}

/** The caller's tasks that match the request's filters (all pages). */
export function listFilter(params: ListTasksRequest, owner: string): Filter<TaskDocument> {
  const filter: Filter<TaskDocument> = { owner };
  if (params.contextId) filter.contextId = params.contextId;
  if (params.status !== undefined && params.status !== TaskState.TASK_STATE_UNSPECIFIED)
    filter.state = params.status;
  if (params.statusTimestampAfter) filter.timestamp = { $gt: params.statusTimestampAfter };
  return filter;
}

/** The filter narrowed to the tasks after the page token's cursor (the filter itself without one). */
export function pageFilter(
  filter: Filter<TaskDocument>,
  pageToken: string | undefined,
): Filter<TaskDocument> {
  if (!pageToken) return filter;
  const cursor = decodePageToken(pageToken);
  return {
    ...filter,
    $or: [
      { timestamp: { $lt: cursor.timestamp } },
      { timestamp: cursor.timestamp, taskId: { $lt: cursor.id } },
    ],
  };
}

export function encodePageToken(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

/** The cursor a page token carries, or undefined for a token this agent did not make. */
export function readPageToken(token: string): Cursor | undefined {
  try {
    const cursor = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
    if (typeof cursor?.timestamp === "string" && typeof cursor?.id === "string") return cursor;
  } catch {
    // not a token of ours
  }
  return undefined;
}

/**
 * A token that cannot be read starts before every task: an empty page. The bindings refuse such a
 * token first (`findBadParams`); a store given one anyway still leaks nothing.
 */
export function decodePageToken(token: string): Cursor {
  return readPageToken(token) ?? { timestamp: "", id: "" };
}
