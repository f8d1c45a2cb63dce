import { randomUUID } from "node:crypto";
import { type Task, TaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from "@a2a-js/sdk/server";
import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  HumanMessage,
  RemoveMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import type { Logger } from "@switchboard/utils/logger";
import { turnDuration } from "@switchboard/utils/metrics";
import { threadIdFor, tokenOf } from "./caller.js";
import type { TurnGraph } from "./definition.js";
import { describeFailure } from "./failure.js";
import { questionFor, resumeValueFor } from "./interrupts.js";
import { messageText, statusUpdate, textArtifact } from "./messages.js";
import type { ThreadLocks } from "./thread-lock.js";
import { type Progress, runInTurn } from "./turn-context.js";

type Outcome = "completed" | "input-required" | "failed" | "canceled";

interface Ids {
  taskId: string;
  contextId: string;
}

/** Streamed answer tokens are sent in batches of at most this interval. */
const TOKEN_FLUSH_MS = 100;

/**
 * Runs one A2A message as one LangGraph turn on the conversation's thread and reports it as task
 * events: working, tool calls, streamed tokens, then the answer (completed), a question
 * (input-required) or a readable failure (failed).
 */
export class AgentTurnExecutor implements AgentExecutor {
  private readonly running = new Map<string, { abort: AbortController; contextId: string }>();

  constructor(
    private readonly agent: string,
    private readonly graph: TurnGraph,
    private readonly locks: ThreadLocks,
    private readonly logger: Logger,
  ) {}

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const ids = { taskId: request.taskId, contextId: request.contextId };
    const log = this.logger.child({ contextId: ids.contextId, taskId: ids.taskId });
    const abort = new AbortController();
    this.running.set(ids.taskId, { abort, contextId: ids.contextId });
    bus.publish(AgentEvent.task(request.task ?? newTask(ids, request)));
    bus.publish(AgentEvent.statusUpdate(statusUpdate(ids, TaskState.TASK_STATE_WORKING)));

    const stopTimer = turnDuration.startTimer();
    let outcome: Outcome = "failed";
    try {
      const threadId = threadIdFor(ids.contextId, request.context.user);
      const token = tokenOf(request.context.user);
      const report = (progress: Progress) =>
        bus.publish(
          AgentEvent.statusUpdate(
            statusUpdate(ids, TaskState.TASK_STATE_WORKING, progress.text, progress.metadata),
          ),
        );
      // One turn at a time per thread, across replicas: no interleaved or lost turns.
      const lease = await this.locks.acquire(threadId, abort.signal);
      try {
        outcome = await runInTurn({ ...ids, threadId, token, report, signal: abort.signal }, () =>
          this.runTurn(ids, threadId, messageText(request.userMessage), abort.signal, bus),
        );
      } finally {
        await lease
          .release()
          .catch((error: unknown) => log.warn({ err: error }, "could not release the thread lease"));
      }
    } catch (error) {
      if (abort.signal.aborted) {
        outcome = "canceled";
      } else {
        log.error({ err: error }, "turn failed");
        bus.publish(
          AgentEvent.statusUpdate(
            statusUpdate(ids, TaskState.TASK_STATE_FAILED, describeFailure(error, this.agent)),
          ),
        );
      }
    } finally {
      this.running.delete(ids.taskId);
      stopTimer({ outcome });
      bus.finished();
    }
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const turn = this.running.get(taskId);
    turn?.abort.abort();
    const ids = { taskId, contextId: turn?.contextId ?? "" };
    bus.publish(AgentEvent.statusUpdate(statusUpdate(ids, TaskState.TASK_STATE_CANCELED, "Canceled.")));
    bus.finished();
  }

  private async runTurn(
    ids: Ids,
    threadId: string,
    text: string,
    signal: AbortSignal,
    bus: ExecutionEventBus,
  ): Promise<Outcome> {
    const config = { configurable: { thread_id: threadId }, signal };
    const pending = pendingInterrupt(await this.graph.getState(config));
    let input: Command | { messages: BaseMessage[] };
    if (pending === undefined) {
      input = { messages: [new HumanMessage(text)] };
    } else {
      const resume = resumeValueFor(pending, text);
      if (resume === undefined) {
        return this.askUser(ids, `Please answer yes or no. ${questionFor(pending)}`, bus);
      }
      input = new Command({ resume });
    }

    const answer = new AnswerStream(ids, bus);
    // Each step is saved before the next runs: a state that cannot be stored stops the turn before
    // the model is called again, and a crash loses nothing that was acknowledged.
    const stream = await this.graph.stream(input, {
      ...config,
      streamMode: ["updates", "messages"],
      durability: "sync",
    });
    for await (const [mode, chunk] of stream as AsyncIterable<[string, unknown]>) {
      if (mode === "messages") answer.onMessageChunk(chunk);
      if (mode === "updates") this.reportToolActivity(ids, chunk, bus);
    }

    // One read of the state the turn ended in: either a question is pending, or there is an answer.
    const state = await this.graph.getState(config);
    const question = pendingInterrupt(state);
    if (question !== undefined) return this.askUser(ids, questionFor(question), bus);

    const messages = (state.values as { messages?: BaseMessage[] }).messages ?? [];
    const last = [...messages].reverse().find((message) => AIMessage.isInstance(message));
    answer.finish(last ? contentText(last) : "");
    return "completed";
  }

  private askUser(ids: Ids, question: string, bus: ExecutionEventBus): Outcome {
    bus.publish(AgentEvent.statusUpdate(statusUpdate(ids, TaskState.TASK_STATE_INPUT_REQUIRED, question)));
    return "input-required";
  }

  /** Node updates from the agent graph: the model asking for tools, and tools answering. */
  private reportToolActivity(ids: Ids, update: unknown, bus: ExecutionEventBus): void {
    for (const value of Object.values(update as Record<string, { messages?: unknown }>)) {
      const messages = Array.isArray(value?.messages) ? (value.messages as BaseMessage[]) : [];
      // A rewritten history (a context summary followed by the messages kept) repeats old calls.
      if (messages.some((message) => RemoveMessage.isInstance(message))) continue;
      for (const message of messages) {
        if (AIMessage.isInstance(message)) {
          for (const call of message.tool_calls ?? []) {
            const progress = { kind: "tool-call", agent: this.agent, tool: call.name };
            bus.publish(
              AgentEvent.statusUpdate(
                statusUpdate(ids, TaskState.TASK_STATE_WORKING, `Calling ${call.name}`, progress),
              ),
            );
          }
        } else if (ToolMessage.isInstance(message)) {
          const progress = {
            kind: "tool-result",
            agent: this.agent,
            tool: message.name,
            status: message.status,
          };
          const verb = message.status === "error" ? "failed" : "done";
          bus.publish(
            AgentEvent.statusUpdate(
              statusUpdate(ids, TaskState.TASK_STATE_WORKING, `${message.name ?? "tool"} ${verb}`, progress),
            ),
          );
        }
      }
    }
  }
}

/** The answer artifact: model tokens appended as they stream, then replaced by the final text. */
class AnswerStream {
  private readonly artifactId = `answer-${randomUUID()}`;
  private buffered = "";
  private lastFlush = 0;

  constructor(
    private readonly ids: Ids,
    private readonly bus: ExecutionEventBus,
  ) {}

  onMessageChunk(chunk: unknown): void {
    const [message] = chunk as [BaseMessage, Record<string, unknown>];
    if (!AIMessageChunk.isInstance(message) || (message.tool_call_chunks?.length ?? 0) > 0) return;
    this.buffered += contentText(message);
    if (Date.now() - this.lastFlush >= TOKEN_FLUSH_MS) this.flush();
  }

  finish(text: string): void {
    this.publish(text, false, true);
    this.bus.publish(AgentEvent.statusUpdate(statusUpdate(this.ids, TaskState.TASK_STATE_COMPLETED, text)));
  }

  private flush(): void {
    if (!this.buffered) return;
    this.publish(this.buffered, true, false);
    this.buffered = "";
    this.lastFlush = Date.now();
  }

  private publish(text: string, append: boolean, lastChunk: boolean): void {
    this.bus.publish(
      AgentEvent.artifactUpdate({
        ...this.ids,
        artifact: textArtifact(this.artifactId, "answer", text),
        append,
        lastChunk,
        metadata: undefined,
      }),
    );
  }
}

/** The value of the first interrupt the thread is paused on, if any. */
function pendingInterrupt(snapshot: Awaited<ReturnType<TurnGraph["getState"]>>): unknown {
  for (const task of snapshot.tasks) {
    const [first] = task.interrupts;
    if (first) return first.value;
  }
  return undefined;
}

function newTask(ids: Ids, request: RequestContext): Task {
  return {
    id: ids.taskId,
    contextId: ids.contextId,
    status: {
      state: TaskState.TASK_STATE_SUBMITTED,
      message: undefined,
      timestamp: new Date().toISOString(),
    },
    artifacts: [],
    history: [request.userMessage],
    metadata: undefined,
  };
}

function contentText(message: BaseMessage): string {
  const { content } = message;
  if (typeof content === "string") return content;
  return content
    .map((block) => (typeof block === "string" ? block : block.type === "text" ? String(block.text) : ""))
    .join("");
}
