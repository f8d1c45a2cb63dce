import type { Message, SendMessageRequest, Task } from "@a2a-js/sdk";
import { DefaultRequestHandler, type RequestContext, type ServerCallContext } from "@a2a-js/sdk/server";
import { ANSWER_WITHOUT_TOKENS_EXTENSION } from "./card.js";

/** Calls whose caller waits for the final task of a blocking send (message/send, SendMessage). */
const blockingSends = new WeakSet<ServerCallContext>();

/**
 * The SDK's request handler, noting which calls are blocking sends: their caller reads only the
 * final task, so the executor does not ask the model for a token stream nobody receives (the
 * stored task and the answer are the same either way).
 */
export class AgentRequestHandler extends DefaultRequestHandler {
  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    if (context && params.configuration?.returnImmediately !== true) blockingSends.add(context);
    return super.sendMessage(params, context);
  }
}

/**
 * Whether the turn's caller reads only its final answer: a blocking send, or a stream whose client
 * asked for {@link ANSWER_WITHOUT_TOKENS_EXTENSION}.
 */
export function awaitsOnlyTheResult(request: RequestContext): boolean {
  const context = request.context;
  if (context === undefined) return false;
  if (blockingSends.has(context)) return true;
  // The SDK keeps only the requested extensions the card declares.
  if (!context.requestedExtensions?.includes(ANSWER_WITHOUT_TOKENS_EXTENSION)) return false;
  context.addActivatedExtension(ANSWER_WITHOUT_TOKENS_EXTENSION);
  return true;
}
