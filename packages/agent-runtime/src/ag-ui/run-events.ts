import { randomUUID } from "node:crypto";
import { type Message, type StreamResponse, TaskState, type TaskStatusUpdateEvent } from "@a2a-js/sdk";
import { type BaseEvent, EventType, type Interrupt, PROTOCOL_VERSION, type RunAgentInput } from "@ag-ui/core";
import { partsText, statusOrigin } from "@switchboard/a2a-client";

/** What a confirmation's resume payload may say (the interrupt's responseSchema). */
const DECISION_SCHEMA = {
  type: "object",
  properties: {
    decision: { enum: ["approve", "decline"] },
    argsHashes: { type: "array", items: { type: "string" } },
  },
  required: ["decision"],
};

/**
 * One AG-UI run, read off the A2A events of the turn that runs it (the executor's TurnEvents): an
 * adapter over the A2A stream, never a second way to run a turn.
 * - the task → STATE_SNAPSHOT (taskId, status, the activity now);
 * - working progress → STEP_STARTED per agent asked (the supervisor's hops), TOOL_CALL_START/END and
 *   TOOL_CALL_RESULT per tool call (the agent's own and a subagent's), STATE_DELTA of the activity;
 * - the answer artifact → TEXT_MESSAGE_START/CONTENT/END as it is written;
 * - completed → RUN_FINISHED success; input-required → the question as text, then RUN_FINISHED
 *   with the interrupt outcome (its id the asking task, answered by the next run's resume);
 *   canceled → the cancelled outcome; failed → RUN_ERROR.
 * Every step, tool call and message opened is closed before the run's last event.
 */
export class RunEvents {
  private taskId: string | undefined;
  private text: { id: string; written: string } | undefined;
  /** Text already sent as a message of this run (an answer is not sent twice). */
  private answered = "";
  private readonly steps: string[] = [];
  /** Tool calls started and not answered yet, by "<agent>/<tool>", oldest first. */
  private readonly calls = new Map<string, Array<{ id: string; tool: string }>>();
  private ended = false;

  constructor(
    private readonly agent: string,
    private readonly ids: { threadId: string; runId: string },
  ) {}

  started(input: RunAgentInput): BaseEvent[] {
    return [
      {
        type: EventType.RUN_STARTED,
        ...this.ids,
        protocolVersion: PROTOCOL_VERSION,
        input,
      } as BaseEvent,
    ];
  }

  /** The AG-UI events one A2A stream event makes. */
  next(response: StreamResponse): BaseEvent[] {
    if (this.ended) return [];
    const payload = response.payload;
    switch (payload?.$case) {
      case "task":
        this.taskId = payload.value.id;
        return [this.snapshot("working")];
      case "message":
        return [...this.write(partsText(payload.value.parts, "")), ...this.finish({ type: "success" })];
      case "artifactUpdate": {
        const { artifact, append } = payload.value;
        const text = partsText(artifact?.parts, "");
        return append ? this.write(text) : this.write(this.rest(text));
      }
      case "statusUpdate":
        return this.status(payload.value);
      default:
        return [];
    }
  }

  /** The stream ended without a last status (the turn was handed elsewhere): the run ends as it stands. */
  closed(): BaseEvent[] {
    return this.ended ? [] : this.finish({ type: "success" });
  }

  /** The turn could not run or broke off: the run's error, in words a user can act on. */
  failed(message: string, code?: string): BaseEvent[] {
    if (this.ended) return [];
    const open = this.closeAll();
    this.ended = true;
    return [...open, { type: EventType.RUN_ERROR, message, ...(code ? { code } : {}) } as BaseEvent];
  }

  private status(update: TaskStatusUpdateEvent): BaseEvent[] {
    const { state, message } = update.status ?? {};
    const text = message ? partsText(message.parts, "") : "";
    switch (state) {
      case TaskState.TASK_STATE_WORKING:
        return text ? this.progress(text, update.metadata ?? {}) : [];
      case TaskState.TASK_STATE_COMPLETED:
        return [...this.write(this.rest(text)), ...this.finish({ type: "success" })];
      case TaskState.TASK_STATE_INPUT_REQUIRED:
      case TaskState.TASK_STATE_AUTH_REQUIRED:
        return this.interrupt(text, message, state === TaskState.TASK_STATE_AUTH_REQUIRED);
      case TaskState.TASK_STATE_CANCELED:
        return this.finish({ type: "cancelled" });
      case TaskState.TASK_STATE_FAILED:
      case TaskState.TASK_STATE_REJECTED:
        return this.failed(text || "The turn failed.", "turn_failed");
      default:
        return [];
    }
  }

  /** Which agent and tool is working: a hop opens the asked agent's step; a tool call or result. */
  private progress(text: string, metadata: Record<string, unknown>): BaseEvent[] {
    const agent = typeof metadata.agent === "string" ? metadata.agent : this.agent;
    const tool = typeof metadata.tool === "string" ? metadata.tool : undefined;
    const events: BaseEvent[] = [];
    if (agent !== this.agent && !this.steps.includes(agent)) {
      this.steps.push(agent);
      events.push({ type: EventType.STEP_STARTED, stepName: agent } as BaseEvent);
    }
    // A tool call (tool-activity.ts), the agent's own or a subagent's, which a relay keeps whole.
    if (tool && statusOrigin(metadata).kind === "tool-call") {
      const id = `call-${randomUUID()}`;
      const key = `${agent}/${tool}`;
      this.calls.set(key, [...(this.calls.get(key) ?? []), { id, tool }]);
      events.push(
        {
          type: EventType.TOOL_CALL_START,
          toolCallId: id,
          toolCallName: tool,
          metadata: { agent },
        } as BaseEvent,
        { type: EventType.TOOL_CALL_END, toolCallId: id } as BaseEvent,
      );
    } else if (tool) {
      const call = this.calls.get(`${agent}/${tool}`)?.shift();
      if (call) {
        events.push({
          type: EventType.TOOL_CALL_RESULT,
          messageId: `result-${randomUUID()}`,
          toolCallId: call.id,
          role: "tool",
          content: text,
        } as BaseEvent);
      }
    }
    events.push({
      type: EventType.STATE_DELTA,
      delta: [{ op: "replace", path: "/activity", value: { agent, ...(tool ? { tool } : {}), text } }],
    } as BaseEvent);
    return events;
  }

  /**
   * A question ends the run with the interrupt outcome. A confirmation names the changes' argument
   * hashes (which a decision may echo) and the tool call it waits on; the question's words go as
   * the assistant's text, as in the web chat.
   */
  private interrupt(question: string, message: Message | undefined, auth: boolean): BaseEvent[] {
    const events = this.write(this.answered ? `\n\n${question}` : question);
    const confirmation = (message?.metadata as { confirmation?: { changes?: ChangeShown[] } } | undefined)
      ?.confirmation;
    const changes = confirmation?.changes ?? [];
    const waiting = changes.length > 0 ? this.waitingCall(changes) : undefined;
    const interrupt: Interrupt = {
      id: this.taskId ?? "",
      reason: auth ? "auth_required" : changes.length > 0 ? "confirmation" : "input_required",
      message: question,
      ...(waiting ? { toolCallId: waiting } : {}),
      ...(changes.length > 0 ? { responseSchema: DECISION_SCHEMA } : {}),
      metadata: {
        taskId: this.taskId,
        ...(changes.length > 0
          ? {
              changes,
              argsHashes: changes.map(({ argsHash }) => argsHash).filter((hash) => typeof hash === "string"),
            }
          : {}),
      },
    };
    return [...events, ...this.finish({ type: "interrupt", interrupts: [interrupt] })];
  }

  /** The tool call a confirmation waits on: the newest started and not answered, of a tool it names. */
  private waitingCall(changes: ChangeShown[]): string | undefined {
    const tools = new Set(changes.map(({ tool }) => tool).filter(Boolean));
    const open = [...this.calls.values()].flat();
    const named = open.filter(({ tool }) => tools.has(tool));
    return (named.at(-1) ?? (tools.size === 0 ? open.at(-1) : undefined))?.id;
  }

  /** What of the final answer was not streamed yet (all of it when what streamed is not its start). */
  private rest(final: string): string {
    if (!final) return "";
    return final.startsWith(this.answered) ? final.slice(this.answered.length) : this.answered ? "" : final;
  }

  private write(delta: string): BaseEvent[] {
    if (!delta) return [];
    const events: BaseEvent[] = [];
    if (!this.text) {
      this.text = { id: `msg-${randomUUID()}`, written: "" };
      events.push({
        type: EventType.TEXT_MESSAGE_START,
        messageId: this.text.id,
        role: "assistant",
      } as BaseEvent);
    }
    this.text.written += delta;
    this.answered += delta;
    events.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: this.text.id, delta } as BaseEvent);
    return events;
  }

  private finish(outcome: Record<string, unknown>): BaseEvent[] {
    const events = [...this.closeAll(), this.snapshot(String(outcome.type))];
    this.ended = true;
    events.push({ type: EventType.RUN_FINISHED, ...this.ids, outcome } as BaseEvent);
    return events;
  }

  /** Closes the open message and steps (tool calls are closed as they start). */
  private closeAll(): BaseEvent[] {
    const events: BaseEvent[] = [];
    if (this.text) events.push({ type: EventType.TEXT_MESSAGE_END, messageId: this.text.id } as BaseEvent);
    this.text = undefined;
    for (const stepName of this.steps.splice(0).reverse()) {
      events.push({ type: EventType.STEP_FINISHED, stepName } as BaseEvent);
    }
    return events;
  }

  private snapshot(status: string): BaseEvent {
    return {
      type: EventType.STATE_SNAPSHOT,
      snapshot: { agent: this.agent, taskId: this.taskId ?? null, status, activity: null },
    } as BaseEvent;
  }
}

/** A change as a question's metadata shows it (turn/answer-pause.ts' questionMetadata). */
interface ChangeShown {
  tool?: string;
  args?: Record<string, unknown>;
  argsHash?: string;
}
