import { Role, type Task, TaskState } from "@a2a-js/sdk";
import { ServerCallContext, type TaskStore, type User } from "@a2a-js/sdk/server";
import { type AnswerSource, artifactText, partsSources, partsText, turnState } from "@switchboard/a2a-client";
import type { ConversationTasks, GroupsConversations } from "../tasks/conversation-tasks.js";

/** One of the caller's conversations, as a list of them shows it. */
export interface ConversationSummary {
  contextId: string;
  /** The first message of the conversation, shortened. */
  title: string;
  /** The newest status change of any of its turns (ISO 8601). */
  updatedAt: string;
  /** How many A2A tasks (turns, a confirmation and its answer counting as one) it holds. */
  tasks: number;
  /** The state of its newest task, e.g. `input-required` while a change waits for confirmation. */
  state: string;
}

/** One A2A task of a conversation: what the user said, the agent's progress and questions, the answer. */
export interface ConversationTask {
  taskId: string;
  state: string;
  updatedAt: string;
  /** The task's messages in order: the user's, and the agent's status messages (progress, questions). */
  messages: Array<{ role: "user" | "agent"; text: string }>;
  /** The answer (the task's artifacts); empty while it runs, waits or failed. */
  answer: string;
  /** The documents the answer drew on, when the agent listed them with it (a sources DataPart). */
  sources?: AnswerSource[];
}

export interface ConversationHistory {
  contextId: string;
  title: string;
  updatedAt: string;
  /** Oldest first. */
  tasks: ConversationTask[];
}

/** Past this many of a caller's tasks, older conversations are left out of the list. */
const MAX_TASKS_LISTED = 2_000;
const MAX_TASKS_PER_CONVERSATION = 1_000;
const PAGE_SIZE = 100;
const TITLE_CHARS = 120;

/**
 * The caller's conversations, newest activity first. Read from the A2A task store, which keeps each
 * caller's tasks apart exactly as their threads are (the owner is the same key as the thread prefix),
 * so nobody lists another user's conversations. A store that groups them itself does; any other is
 * read task by task.
 */
export async function listConversations(tasks: TaskStore, user: User): Promise<ConversationSummary[]> {
  const grouped = groupsConversations(tasks)
    ? await tasks.conversationsOf(new ServerCallContext({ user }), MAX_TASKS_LISTED)
    : await groupByConversation(callerTasks(tasks, user, "", MAX_TASKS_LISTED));
  return grouped.map(({ contextId, oldest, updatedAt, count, state }) => ({
    contextId,
    title: titleOf(oldest),
    updatedAt,
    tasks: count,
    state: turnState(state),
  }));
}

function groupsConversations(tasks: TaskStore): tasks is TaskStore & GroupsConversations {
  return typeof (tasks as Partial<GroupsConversations>).conversationsOf === "function";
}

/** Tasks newest first, grouped by conversation in the order each was first seen. */
async function groupByConversation(tasks: AsyncIterable<Task>): Promise<ConversationTasks[]> {
  const found = new Map<string, ConversationTasks>();
  for await (const task of tasks) {
    const entry = found.get(task.contextId);
    // Newest first: the first task seen is the newest, the last the oldest.
    if (entry) Object.assign(entry, { oldest: task, count: entry.count + 1 });
    else
      found.set(task.contextId, {
        contextId: task.contextId,
        updatedAt: task.status?.timestamp ?? "",
        state: task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED,
        count: 1,
        oldest: task,
      });
  }
  return [...found.values()];
}

/** One conversation of the caller, oldest task first; undefined when the caller has none by that id. */
export async function readConversation(
  tasks: TaskStore,
  user: User,
  contextId: string,
): Promise<ConversationHistory | undefined> {
  const found: Task[] = [];
  for await (const task of callerTasks(tasks, user, contextId, MAX_TASKS_PER_CONVERSATION)) found.push(task);
  found.reverse();
  const [first] = found;
  if (!first) return undefined;
  return {
    contextId,
    title: titleOf(first),
    updatedAt: found.at(-1)?.status?.timestamp ?? "",
    tasks: found.map(taskView),
  };
}

async function* callerTasks(
  store: TaskStore,
  user: User,
  contextId: string,
  limit: number,
): AsyncGenerator<Task> {
  const context = new ServerCallContext({ user });
  let pageToken = "";
  let seen = 0;
  do {
    const page = await store.list(
      {
        tenant: "",
        contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: PAGE_SIZE,
        pageToken,
        statusTimestampAfter: undefined,
        includeArtifacts: contextId !== "",
      },
      context,
    );
    for (const task of page.tasks) {
      if (seen++ >= limit) return;
      yield task;
    }
    pageToken = page.nextPageToken;
  } while (pageToken);
}

function taskView(task: Task): ConversationTask {
  const sources = (task.artifacts ?? []).map((artifact) => partsSources(artifact.parts)).findLast(Boolean);
  return {
    taskId: task.id,
    state: turnState(task.status?.state),
    updatedAt: task.status?.timestamp ?? "",
    messages: (task.history ?? []).map((message) => ({
      role: message.role === Role.ROLE_USER ? "user" : "agent",
      text: partsText(message.parts),
    })),
    answer: (task.artifacts ?? [])
      .map(artifactText)
      .filter((text) => text !== "")
      .join("\n"),
    ...(sources ? { sources } : {}),
  };
}

function titleOf(task: Task): string {
  const first = task.history?.find((message) => message.role === Role.ROLE_USER);
  const text = partsText(first?.parts).replace(/\s+/g, " ").trim();
  return text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS - 1)}…` : text;
}
