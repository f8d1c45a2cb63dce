import { randomUUID } from "node:crypto";
import { type Part, type Task, TaskState } from "@a2a-js/sdk";
import type { AgentExecutor, ExecutionEventBus, RequestContext, ServerCallContext } from "@a2a-js/sdk/server";
import { AIMessage, AIMessageChunk, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { Command, INTERRUPT } from "@langchain/langgraph";
import { context, type Span, trace } from "@opentelemetry/api";
import { partsText } from "@switchboard/a2a-client";
import type { Logger } from "@switchboard/common";
import { AuthenticatedCaller, approverOf, threadIdFor, tokenOf } from "../auth/caller.js";
import type { Access } from "../authz/access.js";
import type { Principal } from "../authz/principal.js";
import { dataPart } from "../context/a2a-messages.js";
import type { AnswerData, Progress, TurnContext } from "../context/turn-context.js";
import type { TurnGraph } from "../definition.js";
import { passedOnMemories } from "../memory/passed-on.js";
import type { TurnMemories } from "../memory/turn-memories.js";
import type { ThreadLocks } from "../tasks/thread-lock.js";
import { callerTraceContext } from "../telemetry/caller-trace.js";
import type { RuntimeMetrics } from "../telemetry/metrics.js";
import { ModelCallObserver } from "../telemetry/model-calls.js";
import { endTurnSpan, startTurnSpan } from "../telemetry/turn-span.js";
import { type AnswerDelivery, answerDelivery } from "./answer-delivery.js";
import { type Answering, answerFor, questionMetadata } from "./answer-pause.js";
import { refusedApproval } from "./approval.js";
import { budgetIn, spendMetadata, TurnBudget } from "./budget.js";
import { describeFailure } from "./failure.js";
import { isStepConfirmation, type PendingInterrupt, questionFor } from "./interrupts.js";
import { answersToLostToolCalls, UNANSWERED_RESULT, UNCONFIRMED_RESULT } from "./lost-tool-calls.js";
import { reportToolActivity } from "./tool-activity.js";
import { pendingInterrupts, type TurnCheckpoints } from "./turn-checkpoints.js";
import { TurnEvents } from "./turn-events.js";
import { WriteBarrier } from "./write-barrier.js";

type Outcome = "completed" | "input-required" | "failed" | "canceled";

interface Ids {
  taskId: string;
  contextId: string;
}

/** A canceled task's last status message. */
const CANCELED = "Canceled.";

/** Streamed answer tokens are sent in batches of at most this interval. */
const TOKEN_FLUSH_MS = 100;

export interface TurnExecutorDeps {
  agent: string;
  graph: TurnGraph;
  /** The saver the graph was compiled with, as the executor reads it. */
  checkpoints: TurnCheckpoints;
  locks: ThreadLocks;
  logger: Logger;
  /** The agent's registry: turn durations, model and tool calls. */
  metrics: RuntimeMetrics;
  /** Told of a new task before it is first published, so its stores need not look for it. */
  tasks?: { willCreate(taskId: string, context: ServerCallContext): void };
  /** Set when tracing is on: each turn is a span, its model and tool calls spans beneath it. */
  tracing?: { captureContent: boolean };
  /** Who may use this agent: checked before the turn takes the conversation's lease. */
  access: Access;
  /** Long-term memory, when on: a new message's recall starts as its turn does. */
  memories?: Pick<TurnMemories, "prefetch">;
  /** CONFIRMATION_EXPIRY_SECONDS, in ms: how long a change waits for its decision. */
  confirmationExpiryMs: number;
}

/**
 * Runs one A2A message as one LangGraph turn on the conversation's thread and reports it as task
 * events: working, tool calls, streamed tokens, then the answer (completed), a question
 * (input-required) or a readable failure (failed).
 */
export class AgentTurnExecutor implements AgentExecutor {
  private readonly running = new Map<
    string,
    { abort: AbortController; contextId: string; stopped?: string; ended: Promise<void> }
  >();

  constructor(private readonly deps: TurnExecutorDeps) {}

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    if (!this.deps.tracing) return this.executeTurn(request, bus);
    // A caller without traceparent may name its trace in metadata.trace_id (CAIPE's supervisor does).
    const headers = request.context.state.get("headers") as Record<string, unknown> | undefined;
    const parent = callerTraceContext(context.active(), headers, request.userMessage?.metadata);
    const span = context.with(parent, () =>
      startTurnSpan(
        this.deps.agent,
        { contextId: request.contextId, taskId: request.taskId },
        request.context.user,
      ),
    );
    // Active for the whole turn: lock, checkpoint, MongoDB and subagent spans nest under it.
    return context.with(trace.setSpan(parent, span), () => this.executeTurn(request, bus, span));
  }

  private async executeTurn(request: RequestContext, bus: ExecutionEventBus, span?: Span): Promise<void> {
    const ids = { taskId: request.taskId, contextId: request.contextId };
    // Built only when something is logged: most turns log nothing.
    const log = () => this.deps.logger.child({ contextId: ids.contextId, taskId: ids.taskId });
    const abort = new AbortController();
    let ended = () => {};
    this.running.set(ids.taskId, {
      abort,
      contextId: ids.contextId,
      ended: new Promise<void>((resolve) => (ended = resolve)),
    });
    const events = new TurnEvents(bus, ids);
    // The SDK gave a message without a task a fresh id: the task is new.
    if (!request.task) this.deps.tasks?.willCreate(ids.taskId, request.context);
    events.task(request.task ?? newTask(ids, request));
    events.status(TaskState.TASK_STATE_WORKING);

    const stopTimer = this.deps.metrics.turnDuration.startTimer();
    let outcome: Outcome = "failed";
    let answer: AnswerStream | undefined;
    // The turn's spend, reported to the caller at its end whatever the end (a task's next turn
    // never leaves the last one's standing); a caller's budget ends the turn with why once spent
    // (the executor's stop, as for a drain).
    const budget = turnBudget(this.deps.agent, request, (why) => {
      const running = this.running.get(ids.taskId);
      if (running && !running.stopped) {
        running.stopped = why;
        running.abort.abort();
      }
    });
    try {
      const threadId = threadIdFor(ids.contextId, request.context.user);
      const token = tokenOf(request.context.user);
      const principal = this.deps.access.principal(request.context.user);
      await this.deps.access.checkReach(principal, ids.contextId);
      const approverCaller = approverOf(request.context.user);
      const approver = approverCaller
        ? { principal: this.deps.access.principal(approverCaller), token: approverCaller.token }
        : undefined;
      const report = (progress: Progress) =>
        events.status(TaskState.TASK_STATE_WORKING, progress.text, { metadata: progress.metadata });
      // One turn at a time per thread, across replicas: no interleaved or lost turns.
      const lease = await this.deps.locks.acquire(threadId, abort.signal);
      try {
        // What the caller reads of the answer decides whether the model streams tokens.
        const delivery = answerDelivery(request);
        const stream = new AnswerStream(events, delivery);
        answer = stream;
        // Only a caller that reads the answer as it is written is handed pieces of it.
        const streamAnswer = stream.tokens ? { streamAnswer: stream.write } : {};
        // The turn, passed to the graph as its run context (context/turn-context.ts).
        const turn: TurnContext = {
          budget,
          ...ids,
          threadId,
          token,
          ...(request.context.user instanceof AuthenticatedCaller ? { caller: request.context.user } : {}),
          principal,
          ...(approver ? { approver } : {}),
          ...passedOn(request),
          report,
          ...streamAnswer,
          addToAnswer: stream.addToAnswer,
          stored: () => this.deps.checkpoints.stored(threadId),
          signal: abort.signal,
        };
        outcome = await this.runTurn(
          turn,
          {
            text: partsText(request.userMessage?.parts, "\n"),
            parts: request.userMessage?.parts ?? [],
            // The task the message answers: only one it names itself (A2A taskId, which the SDK
            // loaded as request.task; it gives a message without one a fresh id), never a guess.
            taskId: request.task ? request.taskId : undefined,
          },
          { caller: principal, ...(approver ? { approver: approver.principal } : {}) },
          events,
          stream,
        );
      } finally {
        this.deps.checkpoints.release(threadId);
        await lease
          .release()
          .catch((error: unknown) => log().warn({ err: error }, "could not release the thread lease"));
      }
    } catch (error) {
      const stopped = this.running.get(ids.taskId)?.stopped;
      if (stopped) {
        events.settle(TaskState.TASK_STATE_FAILED, stopped);
      } else if (abort.signal.aborted) {
        outcome = "canceled";
        events.settle(TaskState.TASK_STATE_CANCELED, CANCELED);
      } else {
        log().error({ err: error }, "turn failed");
        events.settle(TaskState.TASK_STATE_FAILED, describeFailure(error, this.deps.agent));
      }
    } finally {
      this.running.delete(ids.taskId);
      // Nothing more of an answer is sent once the turn has ended (failed or stopped mid-answer).
      answer?.close();
      stopTimer({ outcome });
      if (span) endTurnSpan(span, outcome);
      // On every binding the caller reads it with the last status (turn/budget.ts' SPEND_METADATA_KEY).
      events.finished(spendMetadata(budget.spend()));
      ended();
    }
  }

  /** How many turns this process is running. */
  get runningTurns(): number {
    return this.running.size;
  }

  /**
   * Stops every running turn (the process is going away): each ends failed with `reason`, and its
   * thread lease is released, so the conversation can go on at once on another replica.
   */
  stopAll(reason: string): void {
    for (const turn of this.running.values()) {
      turn.stopped = reason;
      turn.abort.abort();
    }
  }

  /**
   * A running turn is stopped and publishes its own end (canceled, or what it reached first) once it
   * has let go of the conversation, as every turn's last status is (TurnEvents.settle): a caller
   * that sends its next message the moment it reads "canceled" finds the conversation free. A task
   * no turn runs here (one paused on a question) is canceled at once.
   */
  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const turn = this.running.get(taskId);
    if (turn) {
      turn.abort.abort();
      return turn.ended;
    }
    const events = new TurnEvents(bus, { taskId, contextId: "" });
    events.status(TaskState.TASK_STATE_CANCELED, CANCELED);
    events.finished();
  }

  private async runTurn(
    turn: TurnContext,
    message: { text: string; parts: readonly Part[]; taskId: string | undefined },
    who: { caller: Principal; approver?: Principal },
    events: TurnEvents,
    answer: AnswerStream,
  ): Promise<Outcome> {
    const { text } = message;
    const { threadId, signal } = turn;
    // The memories for this message are read while its conversation is (an answer to a pause
    // recalls for the message it answers instead: this read is then the one wasted).
    this.deps.memories?.prefetch(turn, text);
    // The graph's own first read of the thread is handed this same checkpoint (see TurnCheckpoints).
    const latest = await this.deps.checkpoints.latest(threadId);
    const pending = pendingInterrupts(latest);
    const answering: Answering = {
      parts: message.parts,
      taskId: message.taskId,
      subject: who.caller.subject,
      now: Date.now(),
      expiryMs: this.deps.confirmationExpiryMs,
    };
    let input: Command | { messages: BaseMessage[] };
    if (pending.some(({ value }) => isStepConfirmation(value))) {
      // A pause this graph has no step to resume: the model learns its calls did not run.
      input = { messages: [...answersToLostToolCalls(latest, UNCONFIRMED_RESULT), new HumanMessage(text)] };
    } else {
      const verdict = answerFor(pending, answering);
      switch (verdict.kind) {
        case "new":
          // Not an answer to what waits (no pause, or a message that does not name the asking
          // task): a new turn, and a change still waiting is not run; the model reads so.
          input = {
            messages: [
              ...answersToLostToolCalls(latest, pending.length > 0 ? UNANSWERED_RESULT : undefined),
              new HumanMessage(text),
            ],
          };
          break;
        case "closed":
          // An answer to a question no longer open (answered, or given up for a new message): nothing runs.
          answer.finish(verdict.text);
          return "completed";
        case "ask":
          return this.askUser(events, verdict.question, questionMetadata(pending));
        case "resume": {
          // Someone else answering: each change waiting is theirs to decide only if the policy says so.
          if (who.approver) {
            const { caller, approver } = who;
            const refused = await refusedApproval(
              this.deps.access,
              { caller, approver },
              pending,
              turn.contextId,
            );
            if (refused) return this.askUser(events, refused, questionMetadata(pending));
          }
          input = new Command({ resume: verdict.resume });
        }
      }
    }

    // Each step is stored while the next runs; a model's answer and a tool's start wait until
    // it is (write-barrier.ts): a crash loses nothing acknowledged, and no tool runs unrecorded.
    const stream = await this.deps.graph.stream(input, {
      configurable: { thread_id: threadId },
      // The turn goes as LangGraph's run context, never in `configurable` (context/turn-context.ts).
      context: turn,
      signal,
      streamMode: answer.tokens ? ["updates", "values", "messages"] : ["updates", "values"],
      durability: "async",
      callbacks: [
        new WriteBarrier(() => this.deps.checkpoints.stored(threadId)),
        ...(turn.budget instanceof TurnBudget ? [turn.budget] : []),
        new ModelCallObserver({
          agent: this.deps.agent,
          metrics: this.deps.metrics,
          parent: this.deps.tracing ? context.active() : undefined,
          captureContent: this.deps.tracing?.captureContent,
        }),
      ],
    });
    // The state the turn ended in comes with the stream (each step's values, or the interrupt that
    // paused it): no second read of the checkpoint it just wrote.
    let values: { messages?: BaseMessage[] } | undefined;
    // Each task that paused reports its own interrupt.
    const paused = new Map<string, PendingInterrupt>();
    for await (const [mode, chunk] of stream as AsyncIterable<[string, unknown]>) {
      if (mode === "messages") answer.onMessageChunk(chunk);
      else if (mode === "updates") reportToolActivity(this.deps.agent, chunk, events);
      else if (mode === "values") {
        const interrupts = (chunk as Record<string, unknown>)[INTERRUPT];
        if (!Array.isArray(interrupts)) values = chunk as typeof values;
        else for (const pause of interrupts as PendingInterrupt[]) paused.set(pause.id, pause);
      }
    }
    if (paused.size > 0) {
      const asked = [...paused.values()];
      return this.askUser(events, questionFor(asked), questionMetadata(asked));
    }

    const last = values?.messages?.findLast((message) => AIMessage.isInstance(message));
    answer.finish(last ? contentText(last) : "");
    return "completed";
  }

  private askUser(events: TurnEvents, question: string, metadata?: Record<string, unknown>): Outcome {
    // On the question's message, so the stored task keeps it for clients that read it later.
    events.settle(TaskState.TASK_STATE_INPUT_REQUIRED, question, {
      ...(metadata ? { messageMetadata: metadata } : {}),
    });
    return "input-required";
  }
}

/**
 * The answer artifact: text appended as it is written (the model's tokens, or a subagent's answer a
 * hop passes on), sent at most every TOKEN_FLUSH_MS, then replaced by the final text. The first
 * piece goes at once; a piece that arrives sooner after the last is sent when the interval is up,
 * so no text waits for the next one.
 */
class AnswerStream {
  private readonly artifactId = `answer-${randomUUID()}`;
  private buffered = "";
  private lastFlush = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Whether the caller gets the answer as it is written (else only the final text). */
  readonly tokens: boolean;
  /** Whether the completed status repeats the answer (not for callers that read it once). */
  private readonly inStatus: boolean;
  /** What the turn adds to its final answer (TurnContext.addToAnswer), made from its text at the end. */
  private readonly additions: Array<(answer: string) => AnswerData | undefined> = [];

  constructor(
    private readonly events: TurnEvents,
    { tokens, answerInStatus }: AnswerDelivery,
  ) {
    this.tokens = tokens;
    this.inStatus = answerInStatus;
  }

  onMessageChunk(chunk: unknown): void {
    const [message] = chunk as [BaseMessage, Record<string, unknown>];
    if (!AIMessageChunk.isInstance(message) || (message.tool_call_chunks?.length ?? 0) > 0) return;
    this.write(contentText(message));
  }

  /** Appends answer text; a bound function, handed to the turn's context as is. */
  readonly write = (text: string): void => {
    if (!this.tokens || this.closed || !text) return;
    this.buffered += text;
    if (this.timer) return;
    const wait = this.lastFlush + TOKEN_FLUSH_MS - Date.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  };

  /** TurnContext.addToAnswer; a bound function, handed to the turn's context as is. */
  readonly addToAnswer = (part: (answer: string) => AnswerData | undefined): void => {
    this.additions.push(part);
  };

  finish(text: string): void {
    // What was written but still held for the interval goes out first: the pieces add up to the answer.
    if (!this.closed) this.flush();
    this.close();
    const parts = this.additions
      .map((make) => make(text))
      .filter((added) => added !== undefined)
      .map((added) => dataPart(added.data, added.metadata));
    this.events.artifact(this.artifactId, "answer", text, false, true, parts);
    this.events.settle(TaskState.TASK_STATE_COMPLETED, this.inStatus ? text : undefined, { parts });
  }

  /** Sends nothing more of what was written (the final text, if any, replaces it). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private flush(): void {
    this.timer = undefined;
    if (!this.buffered) return;
    this.publish(this.buffered, true, false);
    this.buffered = "";
    this.lastFlush = Date.now();
  }

  private publish(text: string, append: boolean, lastChunk: boolean): void {
    this.events.artifact(this.artifactId, "answer", text, append, lastChunk);
  }
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

/**
 * The turn's spend, counted by a callback of the graph's, against the caller's budget for it
 * (turn/budget.ts' header) when it names one.
 */
function turnBudget(agent: string, request: RequestContext, stop: (why: string) => void): TurnBudget {
  const budget = budgetIn(request.context.state.get("headers") as Record<string, unknown> | undefined);
  return new TurnBudget(agent, budget ?? {}, stop);
}

/** The memories a supervisor's hop passed on in its header (memory/passed-on.ts), for the turn's context. */
function passedOn(request: RequestContext): { passedOnMemories?: string } {
  const headers = request.context.state.get("headers") as Record<string, unknown> | undefined;
  const memories = passedOnMemories(headers);
  return memories ? { passedOnMemories: memories } : {};
}
