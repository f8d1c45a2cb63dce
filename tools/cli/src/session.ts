import {
  type AgentConnection,
  collectTurn,
  connectAgent,
  isA2ACallError,
  type SendInput,
  type TurnEvent,
  type TurnResult,
} from "@switchboard/a2a-client";
import { createLogger } from "@switchboard/common";
import type { CliOptions } from "./args.js";

/** Card fetch retries: enough to ride out a fleet that is still starting, short enough to fail fast. */
const CARD_RETRIES = 2;

/** Connects to the agent at `--url`; failures are thrown as they come (see `describeProblem`). */
export function openConnection(options: CliOptions): Promise<AgentConnection> {
  return connectAgent(options.url, {
    ...(options.token ? { token: options.token } : {}),
    cardRetries: CARD_RETRIES,
    // The client logs card retries; in a terminal they would land between prompt and answer.
    logger: createLogger({ level: options.verbose ? "info" : "silent", destination: process.stderr }),
  });
}

/** Streams one turn, handing each event to `onEvent`, and returns the turn's result. */
export async function runTurn(
  connection: AgentConnection,
  input: SendInput,
  onEvent: (event: TurnEvent) => void,
): Promise<TurnResult> {
  async function* observed(): AsyncGenerator<TurnEvent> {
    for await (const event of connection.stream(input)) {
      onEvent(event);
      yield event;
    }
  }
  return collectTurn(observed());
}

/** One line that says what went wrong and what to do about it. */
export function describeProblem(error: unknown, url: string): string {
  if (isA2ACallError(error)) {
    if (error.code === "a2a.unreachable") {
      return `Cannot reach the supervisor at ${url}: ${error.networkCode ?? "unreachable"}. Start the fleet with npm start.`;
    }
    if (error.httpStatus === 401 || error.httpStatus === 403) {
      return `${error.message}. Pass a valid token with --token or SWITCHBOARD_TOKEN.`;
    }
    return error.message;
  }
  if (error instanceof Error && error.name === "AbortError") return "Canceled.";
  return error instanceof Error ? error.message : String(error);
}
