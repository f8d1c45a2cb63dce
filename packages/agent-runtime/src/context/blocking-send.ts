import type { ServerCallContext } from "@a2a-js/sdk/server";

/**
 * Set in a call's state (the SDK's per-call bag, which reaches the executor as the request's
 * context) when its caller waits for the final task of a blocking send (message/send, SendMessage):
 * noted by the request handler (tasks/), read by the turn (turn/answer-delivery.ts).
 */
const BLOCKING_SEND = "switchboard.blockingSend";

/** Notes, on the call itself, that its caller reads only the final task. */
export function markBlockingSend(context: ServerCallContext): void {
  context.state.set(BLOCKING_SEND, true);
}

/** Whether the call's caller reads only the final task. */
export function isBlockingSend(context: ServerCallContext): boolean {
  return context.state.get(BLOCKING_SEND) === true;
}
