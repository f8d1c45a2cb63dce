import type { Part, Task, TaskState } from "@a2a-js/sdk";
import { AgentEvent, type ExecutionEventBus } from "@a2a-js/sdk/server";
import { agentMessage, textArtifact } from "../context/a2a-messages.js";

/**
 * The one way a turn's A2A events are published, on the bus of the request that runs it: the task,
 * each status update (working progress, the question, the answer's end, a failure, a cancel), the
 * answer artifact's pieces, and the end of the stream. The executor, the answer stream and tool
 * activity all publish through it.
 */
export class TurnEvents {
  /** The turn's last status, held for `finished()` (see `settle`). */
  private last: Parameters<TurnEvents["status"]> | undefined;

  constructor(
    private readonly bus: ExecutionEventBus,
    readonly ids: { taskId: string; contextId: string },
  ) {}

  task(task: Task): void {
    this.bus.publish(AgentEvent.task(task));
  }

  /**
   * A status update: `text` as the agent's message; `metadata` on the event (what progress names),
   * `messageMetadata` on the message itself (a question's, which the stored task keeps), `parts` after
   * its text (the answer's data parts).
   */
  status(
    state: TaskState,
    text?: string,
    {
      metadata,
      messageMetadata,
      parts,
    }: { metadata?: Record<string, unknown>; messageMetadata?: Record<string, unknown>; parts?: Part[] } = {},
  ): void {
    const message = text === undefined ? undefined : agentMessage(text, this.ids, parts);
    if (message && messageMetadata) message.metadata = messageMetadata;
    this.bus.publish(
      AgentEvent.statusUpdate({
        ...this.ids,
        status: { state, message, timestamp: new Date().toISOString() },
        metadata,
      }),
    );
  }

  /** A piece of a text artifact (the answer): appended to what was sent, or replacing it (with `parts` after the text). */
  artifact(
    artifactId: string,
    name: string,
    text: string,
    append: boolean,
    lastChunk: boolean,
    parts?: Part[],
  ): void {
    this.bus.publish(
      AgentEvent.artifactUpdate({
        ...this.ids,
        artifact: textArtifact(artifactId, name, text, parts),
        append,
        lastChunk,
        metadata: undefined,
      }),
    );
  }

  /**
   * The turn's last status (its answer's end, its question, its failure), published by `finished()`
   * with the end of the stream, after the turn has let go of its conversation (lease, checkpoints). A
   * caller answers a question the moment it reads it, on the same task: the SDK keeps a paused task's
   * bus for that answer, and an answer joining it before the asking turn's end would have that end
   * close its stream, the answer's turn running unheard.
   */
  settle(...status: Parameters<TurnEvents["status"]>): void {
    this.last = status;
  }

  /** Publishes the last status (with `metadata` added to its event's: the turn's spend) and ends the stream. */
  finished(metadata?: Record<string, unknown>): void {
    if (this.last) {
      const [state, text, options = {}] = this.last;
      this.status(
        state,
        text,
        metadata ? { ...options, metadata: { ...options.metadata, ...metadata } } : options,
      );
    }
    this.last = undefined;
    this.bus.finished();
  }
}
