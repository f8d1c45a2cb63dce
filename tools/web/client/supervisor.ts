import {
  type AgentConnection,
  collectTurn,
  connectAgent,
  type TurnEvent,
  type TurnResult,
} from "@switchboard/a2a-client";
import { createLogger } from "@switchboard/common";

let connection: Promise<AgentConnection> | undefined;

/**
 * The A2A connection to the supervisor, through this page's own origin (the web server serves the
 * supervisor's card with its endpoints moved there). Made once; a failed attempt is tried again.
 */
function supervisor(): Promise<AgentConnection> {
  connection ??= connectAgent(location.origin, {
    cardRetries: 1,
    logger: createLogger({ level: "silent" }),
  }).catch((error: unknown) => {
    connection = undefined;
    throw error;
  });
  return connection;
}

export interface TurnInput {
  text: string;
  contextId: string;
  /** Answers the question of this task (a confirmation), as the terminal chat's next line does. */
  taskId?: string;
  /** Approve or Decline pressed: the decision, sent explicitly beside the words. */
  decision?: "approve" | "decline";
  /** With `decision`: the question's hashes of the arguments it showed. */
  argsHashes?: string[];
  token?: string;
  signal?: AbortSignal;
}

/** Streams one turn (JSON-RPC with SSE), handing each event to `onEvent`; returns the turn's result. */
export async function runTurn(input: TurnInput, onEvent: (event: TurnEvent) => void): Promise<TurnResult> {
  const agent = await supervisor();
  async function* observed(): AsyncGenerator<TurnEvent> {
    for await (const event of agent.stream(input)) {
      onEvent(event);
      yield event;
    }
  }
  return collectTurn(observed());
}

/** Stops a running turn (A2A tasks/cancel): its stream ends `canceled`, and so do its subagents' turns. */
export async function cancelTurn(taskId: string, token?: string): Promise<void> {
  await (await supervisor()).cancel(taskId, token ? { token } : {});
}

/** The supervisor's name on its card, so its own tool calls are not prefixed with it. */
export async function supervisorName(): Promise<string> {
  return (await supervisor()).card.name;
}
