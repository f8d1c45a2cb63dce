import { type AnswerSource, progressText, type TurnEvent, type TurnResult } from "@switchboard/a2a-client";
import type { ConversationHistory, ConversationTask } from "./api.js";

/** What the user said. */
export interface UserItem {
  kind: "user";
  id: string;
  text: string;
}

/** One stretch of the agent's work on a task: progress, then an answer, a question or a failure. */
export interface AgentItem {
  kind: "agent";
  id: string;
  taskId: string;
  /** `working` while it streams; then the task's state (`completed`, `input-required`, `failed`, …). */
  state: string;
  /** Who was asked and which tools ran, in order. */
  trail: string[];
  answer: string;
  /** The documents the answer drew on, as the supervisor listed them (its knowledge search's hits). */
  sources?: AnswerSource[];
  /** The agent's question while the task waits for the user (`input-required`). */
  question?: string;
  /** A confirmation's hashes of the arguments it shows: Approve and Decline send them back. */
  argsHashes?: string[];
  /** How the user answered the question, once they did. */
  reply?: string;
  error?: string;
}

export type Item = UserItem | AgentItem;

let counter = 0;
export const nextId = (): string => `item-${++counter}`;

export function workingItem(taskId = ""): AgentItem {
  return { kind: "agent", id: nextId(), taskId, state: "working", trail: [], answer: "" };
}

/** The item with one streamed event applied, as the terminal chat prints it: progress, answer text, sources. */
export function applyEvent(
  item: AgentItem,
  event: TurnEvent,
  self: string,
  shown: Map<string, string>,
): AgentItem {
  if (event.kind === "task") return { ...item, taskId: event.taskId };
  // The final answer carries its sources (in its artifact and its status message): the latest list holds.
  const sourced = "sources" in event && event.sources ? { ...item, sources: event.sources } : item;
  const progress = progressText(event, self);
  if (progress !== undefined) return { ...sourced, trail: [...item.trail, progress] };
  if (event.kind === "artifact") {
    // Chunks extend their artifact; a final chunk repeats the whole artifact.
    const before = shown.get(event.artifactId) ?? "";
    shown.set(event.artifactId, event.append ? before + event.text : event.text);
    return { ...sourced, answer: [...shown.values()].filter(Boolean).join("\n") };
  }
  if (event.kind === "message") return { ...sourced, answer: item.answer + event.text };
  return sourced;
}

/** The item once the turn ended: the answer, the question it waits on, or why it failed. */
export function finishItem(item: AgentItem, result: TurnResult): AgentItem {
  const done: AgentItem = {
    ...item,
    taskId: result.taskId || item.taskId,
    state: result.state,
    ...(result.sources ? { sources: result.sources } : {}),
  };
  if (result.state === "completed") return { ...done, answer: item.answer || result.text };
  if (result.state === "input-required" || result.state === "auth-required") {
    return {
      ...done,
      question: result.question || result.text,
      ...(result.argsHashes ? { argsHashes: result.argsHashes } : {}),
    };
  }
  if (result.state === "canceled") return done;
  const unfinished = result.state === "working" || result.state === "submitted";
  return {
    ...done,
    error: unfinished
      ? "The supervisor stopped streaming before the turn finished. Reload to see how it ended."
      : result.text || "The agent gave no reason.",
  };
}

/**
 * A stored conversation as items. Each A2A task holds the user's message, the agent's status
 * messages (progress, then its question or its answer) and, after a question, the user's reply and
 * what followed it.
 */
export function itemsFromHistory(history: ConversationHistory): Item[] {
  return history.tasks.flatMap(itemsFromTask);
}

function itemsFromTask(task: ConversationTask): Item[] {
  const items: Item[] = [];
  let agent: AgentItem | undefined;
  for (const message of task.messages) {
    if (message.role === "user") {
      if (agent) {
        // The agent's last word before the user's reply was its question.
        const question = agent.trail.pop();
        items.push({
          ...agent,
          state: "input-required",
          ...(question ? { question } : {}),
          reply: message.text,
        });
      } else {
        items.push({ kind: "user", id: nextId(), text: message.text });
      }
      agent = workingItem(task.taskId);
      continue;
    }
    agent ??= workingItem(task.taskId);
    agent.trail.push(message.text);
  }
  if (!agent) return items;
  const last = agent.trail.at(-1);
  const ending = { ...agent, state: task.state };
  if (task.state === "completed") {
    // The final status message repeats the answer.
    if (last !== undefined && last.trim() === task.answer.trim()) ending.trail = agent.trail.slice(0, -1);
    items.push({
      ...ending,
      answer: task.answer || (last ?? ""),
      ...(task.sources ? { sources: task.sources } : {}),
    });
  } else if (task.state === "input-required" || task.state === "auth-required") {
    items.push({ ...ending, trail: agent.trail.slice(0, -1), ...(last ? { question: last } : {}) });
  } else if (task.state === "working" || task.state === "submitted") {
    items.push({ ...ending, answer: task.answer });
  } else {
    // The last status message says how it ended: why it failed, or (canceled) what the view words
    // itself as "Stopped.".
    const ended = { ...ending, trail: agent.trail.slice(0, -1) };
    items.push(
      task.state === "canceled"
        ? { ...ended, answer: task.answer }
        : { ...ended, error: last ?? `The turn ended ${task.state}.` },
    );
  }
  return items;
}

/** A short line for a finished trail: the agents asked and the tools they ran. */
export function trailSummary(trail: string[]): string {
  const agents: string[] = [];
  const tools: string[] = [];
  const ownTools: string[] = [];
  for (const line of trail) {
    const asked = /^Asking the ([\w-]+) agent/.exec(line)?.[1];
    if (asked && !agents.includes(asked)) agents.push(asked);
    // A subagent's tool comes prefixed with its name; an unprefixed one is the supervisor's own
    // (its routing call), which says nothing the agent names do not.
    const tool = /^[\w-]+: Calling (\S+)/.exec(line)?.[1];
    if (tool && !tools.includes(tool)) tools.push(tool);
    const own = /^Calling (\S+)/.exec(line)?.[1];
    if (own && !ownTools.includes(own)) ownTools.push(own);
  }
  if (agents.length === 0) tools.push(...ownTools);
  const steps = `${trail.length} step${trail.length === 1 ? "" : "s"}`;
  if (agents.length === 0 && tools.length === 0) return steps;
  const asked = agents.length ? `Asked ${agents.join(", ")}` : "Worked";
  return `${asked}${tools.length ? ` · ${tools.join(", ")}` : ""} (${steps})`;
}
