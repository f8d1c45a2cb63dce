import { type Message, type StreamResponse, type Task, TaskState } from "@a2a-js/sdk";
import { shownArgsHashes } from "./question.js";
import { type AnswerSource, partsSources } from "./sources.js";
import { artifactText, messageText } from "./text.js";
import type { TurnEvent, TurnResult, TurnState } from "./types.js";

const STATE_NAMES: Record<number, TurnState> = {
  [TaskState.TASK_STATE_SUBMITTED]: "submitted",
  [TaskState.TASK_STATE_WORKING]: "working",
  [TaskState.TASK_STATE_INPUT_REQUIRED]: "input-required",
  [TaskState.TASK_STATE_AUTH_REQUIRED]: "auth-required",
  [TaskState.TASK_STATE_COMPLETED]: "completed",
  [TaskState.TASK_STATE_FAILED]: "failed",
  [TaskState.TASK_STATE_CANCELED]: "canceled",
  [TaskState.TASK_STATE_REJECTED]: "rejected",
};

export function turnState(state: TaskState | undefined): TurnState {
  return state === undefined ? "unknown" : (STATE_NAMES[state] ?? "unknown");
}

/** States after which the agent does nothing more on the task without new input. */
export function isFinalState(state: TurnState): boolean {
  return state !== "submitted" && state !== "working";
}

/**
 * What a turn says: its answer (artifacts) when it got one; for a turn that failed or was stopped,
 * the status message saying why, even if part of an answer had streamed before.
 */
function turnText(state: TurnState, answer: string, statusText: string): string {
  const ended = state === "failed" || state === "canceled" || state === "rejected";
  return ended ? statusText || answer : answer || statusText;
}

export function taskToTurnResult(task: Task): TurnResult {
  const state = turnState(task.status?.state);
  const artifacts = (task.artifacts ?? []).map(artifactText);
  const statusText = messageText(task.status?.message);
  const answer = artifacts.filter((text) => text !== "").join("\n");
  const result: TurnResult = {
    taskId: task.id,
    contextId: task.contextId,
    state,
    text: turnText(state, answer, statusText),
    artifacts,
  };
  const sources =
    partsSources(task.status?.message?.parts) ??
    (task.artifacts ?? []).map((artifact) => partsSources(artifact.parts)).findLast(Boolean);
  if (sources) result.sources = sources;
  if (task.metadata && Object.keys(task.metadata).length > 0) result.metadata = task.metadata;
  if (state === "input-required" || state === "auth-required") {
    result.question = statusText;
    const hashes = shownArgsHashes(task.status?.message?.metadata);
    if (hashes) result.argsHashes = hashes;
  }
  return result;
}

/** An agent may answer with a bare Message instead of a Task: that is a finished turn. */
export function messageToTurnResult(message: Message): TurnResult {
  const sources = partsSources(message.parts);
  return {
    taskId: message.taskId,
    contextId: message.contextId,
    state: "completed",
    text: messageText(message),
    artifacts: [],
    ...(sources ? { sources } : {}),
  };
}

export function sendResultToTurnResult(result: Message | Task): TurnResult {
  return "messageId" in result ? messageToTurnResult(result) : taskToTurnResult(result);
}

/** Maps one SDK stream event; `undefined` for an empty payload. */
export function toTurnEvent(response: StreamResponse): TurnEvent | undefined {
  const payload = response.payload;
  switch (payload?.$case) {
    case "task":
      return {
        kind: "task",
        taskId: payload.value.id,
        contextId: payload.value.contextId,
        state: turnState(payload.value.status?.state),
      };
    case "statusUpdate": {
      const event: TurnEvent = {
        kind: "status",
        taskId: payload.value.taskId,
        state: turnState(payload.value.status?.state),
      };
      const text = messageText(payload.value.status?.message);
      if (text) event.text = text;
      if (payload.value.metadata && Object.keys(payload.value.metadata).length > 0)
        event.metadata = payload.value.metadata;
      const hashes = shownArgsHashes(payload.value.status?.message?.metadata);
      if (hashes) event.argsHashes = hashes;
      const sources = partsSources(payload.value.status?.message?.parts);
      if (sources) event.sources = sources;
      return event;
    }
    case "artifactUpdate": {
      const sources = partsSources(payload.value.artifact?.parts);
      return {
        kind: "artifact",
        taskId: payload.value.taskId,
        name: payload.value.artifact?.name ?? "",
        artifactId: payload.value.artifact?.artifactId ?? "",
        text: artifactText(payload.value.artifact),
        append: payload.value.append,
        lastChunk: payload.value.lastChunk,
        ...(sources ? { sources } : {}),
      };
    }
    case "message": {
      const sources = partsSources(payload.value.parts);
      return { kind: "message", text: messageText(payload.value), ...(sources ? { sources } : {}) };
    }
    default:
      return undefined;
  }
}

/** The events a finished turn would have streamed; used when the agent cannot stream. */
export function turnResultToEvents(result: TurnResult): TurnEvent[] {
  const events: TurnEvent[] = [
    { kind: "task", taskId: result.taskId, contextId: result.contextId, state: result.state },
  ];
  result.artifacts.forEach((text, index) => {
    events.push({
      kind: "artifact",
      taskId: result.taskId,
      name: "",
      artifactId: String(index),
      text,
      append: false,
      lastChunk: true,
    });
  });
  const statusText = result.question ?? (result.artifacts.length === 0 ? result.text : undefined);
  events.push({
    kind: "status",
    taskId: result.taskId,
    state: result.state,
    ...(statusText ? { text: statusText } : {}),
    ...(result.sources ? { sources: result.sources } : {}),
  });
  return events;
}

/**
 * Folds streamed events into the turn's result, the way `send()` would have returned it:
 * chunks with `append` extend the artifact with the same id.
 */
export async function collectTurn(events: AsyncIterable<TurnEvent>): Promise<TurnResult> {
  let taskId = "";
  let contextId = "";
  let state: TurnState = "unknown";
  let statusText = "";
  let messageReply = "";
  let argsHashes: string[] | undefined;
  let sources: AnswerSource[] | undefined;
  let metadata: Record<string, unknown> | undefined;
  const artifacts = new Map<string, string>();
  for await (const event of events) {
    // The latest list speaks for the turn (the final answer repeats it in its artifact and status).
    if ("sources" in event && event.sources) sources = event.sources;
    switch (event.kind) {
      case "task":
        taskId = event.taskId;
        contextId = event.contextId;
        state = event.state;
        break;
      case "status":
        state = event.state;
        statusText = event.text ?? ""; // only the latest status speaks for the turn
        argsHashes = event.argsHashes;
        // Merged as the agent merges them into its task, so a stream reads as send() would.
        if (event.metadata) metadata = { ...metadata, ...event.metadata };
        break;
      case "artifact": {
        const key = event.artifactId || String(artifacts.size);
        artifacts.set(key, event.append ? (artifacts.get(key) ?? "") + event.text : event.text);
        break;
      }
      case "message":
        messageReply += event.text;
        if (state === "unknown") state = "completed";
        break;
    }
  }
  const texts = [...artifacts.values()];
  const answer = texts.filter((text) => text !== "").join("\n");
  const result: TurnResult = {
    taskId,
    contextId,
    state,
    text: turnText(state, answer, statusText) || messageReply,
    artifacts: texts,
  };
  if (sources) result.sources = sources;
  if (metadata) result.metadata = metadata;
  if (state === "input-required" || state === "auth-required") {
    result.question = statusText;
    if (argsHashes) result.argsHashes = argsHashes;
  }
  return result;
}
