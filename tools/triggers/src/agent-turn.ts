import type { AgentConnection, SendInput, TurnEvent, TurnResult } from "@switchboard/a2a-client";
import { collectTurn } from "@switchboard/a2a-client";
import type { Logger } from "@switchboard/common";

/** How long the agent has to confirm a run's task is canceled. */
const CANCEL_MS = 10_000;

/** A turn ended at its deadline, and what became of its task at the agent. */
export class PastDeadline extends Error {
  constructor(readonly task: "canceled" | "not-taken" | "not-canceled") {
    super("The turn was ended at its deadline.");
  }
}

/**
 * One turn with a run's agent, ended at `deadline`: streamed, so the agent's task is known as soon
 * as it takes the message, and past the deadline that task is canceled at the agent (A2A
 * tasks/cancel: the agent stops its turn, and its hops cancel their subagents' tasks in turn) before
 * the run is reported ended, rather than only left running there.
 */
export async function turnWithin(
  agent: AgentConnection,
  input: SendInput,
  deadline: AbortSignal,
  log: Logger,
): Promise<TurnResult> {
  let taskId = input.taskId;
  async function* noting(events: AsyncIterable<TurnEvent>): AsyncIterable<TurnEvent> {
    for await (const event of events) {
      if ("taskId" in event && event.taskId) taskId = event.taskId;
      yield event;
    }
  }
  try {
    return await collectTurn(noting(agent.stream({ ...input, signal: deadline })));
  } catch (error) {
    if (!deadline.aborted) throw error;
    if (!taskId) throw new PastDeadline("not-taken");
    try {
      await agent.cancel(taskId, {
        ...(input.token ? { token: input.token } : {}),
        signal: AbortSignal.timeout(CANCEL_MS),
      });
      throw new PastDeadline("canceled");
    } catch (failure) {
      if (failure instanceof PastDeadline) throw failure;
      log.warn({ err: failure, taskId }, "A run past its time budget could not be canceled at its agent");
      throw new PastDeadline("not-canceled");
    }
  }
}
