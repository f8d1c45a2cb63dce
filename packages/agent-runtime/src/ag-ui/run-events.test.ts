import { type StreamResponse, type Task, TaskState } from "@a2a-js/sdk";
import { EventType } from "@ag-ui/core";
import { relayedMetadata } from "@switchboard/a2a-client";
import { describe, expect, it } from "vitest";
import { agentMessage, textArtifact } from "../context/a2a-messages.js";
import { RunEvents } from "./run-events.js";

const ids = { taskId: "task-1", contextId: "thread-1" };
const task: StreamResponse = {
  payload: {
    $case: "task",
    value: {
      id: "task-1",
      contextId: "thread-1",
      status: undefined,
      artifacts: [],
      history: [],
      metadata: undefined,
    } as Task,
  },
};
const status = (state: TaskState, text?: string, metadata?: Record<string, unknown>): StreamResponse => ({
  payload: {
    $case: "statusUpdate",
    value: {
      ...ids,
      status: { state, message: text === undefined ? undefined : agentMessage(text, ids), timestamp: "" },
      metadata,
    },
  },
});
const piece = (text: string, append: boolean): StreamResponse => ({
  payload: {
    $case: "artifactUpdate",
    value: {
      ...ids,
      artifact: textArtifact("answer-1", "answer", text),
      append,
      lastChunk: !append,
      metadata: undefined,
    },
  },
});

/** The AG-UI event types a sequence of A2A events makes, after RUN_STARTED. */
function types(responses: StreamResponse[]): { types: string[]; text: string } {
  const run = new RunEvents("jira", { threadId: "thread-1", runId: "run-1" });
  const events = responses.flatMap((response) => run.next(response));
  const text = events
    .filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)
    .map((event) => (event as { delta?: string }).delta)
    .join("");
  return { types: events.map((event) => event.type), text };
}

describe("an A2A turn as AG-UI events", () => {
  it("sends only what the final chunk adds to what streamed, and closes the message before the run", () => {
    const { types: seen, text } = types([
      task,
      piece("Hello", true),
      piece("Hello world", false),
      status(TaskState.TASK_STATE_COMPLETED, "Hello world"),
    ]);
    expect(text).toBe("Hello world");
    expect(seen).toEqual([
      "STATE_SNAPSHOT",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "STATE_SNAPSHOT",
      "RUN_FINISHED",
    ]);
  });

  it("pairs a tool's result with its call, closes a hop's step, and ends a failed turn with RUN_ERROR alone", () => {
    const { types: seen } = types([
      task,
      status(TaskState.TASK_STATE_WORKING, "Asking the github agent", {
        kind: "agent-call",
        agent: "github",
      }),
      // As the supervisor relays them (delegation): the subagent's own metadata kept whole.
      status(
        TaskState.TASK_STATE_WORKING,
        "github: Calling list_prs",
        relayedMetadata("github", { kind: "tool-call", agent: "github", tool: "list_prs" }),
      ),
      status(
        TaskState.TASK_STATE_WORKING,
        "github: list_prs done",
        relayedMetadata("github", { kind: "tool-result", agent: "github", tool: "list_prs" }),
      ),
      piece("Half an ans", true),
      status(TaskState.TASK_STATE_FAILED, "The model provider refused the request."),
      status(TaskState.TASK_STATE_COMPLETED, "ignored: the run has ended"),
    ]);
    expect(seen).toEqual([
      "STATE_SNAPSHOT",
      "STEP_STARTED",
      "STATE_DELTA",
      "TOOL_CALL_START",
      "TOOL_CALL_END",
      "STATE_DELTA",
      "TOOL_CALL_RESULT",
      "STATE_DELTA",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "STEP_FINISHED",
      "RUN_ERROR",
    ]);
  });

  it("ends a canceled turn with the cancelled outcome, and a paused one with an interrupt naming its task", () => {
    const canceled = new RunEvents("jira", { threadId: "thread-1", runId: "run-1" });
    const last = [task, status(TaskState.TASK_STATE_CANCELED, "Canceled.")]
      .flatMap((r) => canceled.next(r))
      .at(-1);
    expect(last).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: "cancelled" } });

    const paused = new RunEvents("jira", { threadId: "thread-1", runId: "run-2" });
    const question = status(TaskState.TASK_STATE_INPUT_REQUIRED, "Which project?");
    const end = [task, question].flatMap((r) => paused.next(r)).at(-1);
    expect(end).toMatchObject({
      type: EventType.RUN_FINISHED,
      outcome: {
        type: "interrupt",
        interrupts: [{ id: "task-1", reason: "input_required", message: "Which project?" }],
      },
    });
  });
});
