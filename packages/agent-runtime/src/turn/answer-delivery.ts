import type { RequestContext } from "@a2a-js/sdk/server";
import { isBlockingSend } from "../context/blocking-send.js";
import { ANSWER_WITHOUT_TOKENS_EXTENSION } from "../http/card.js";
import { readsAnswerOnce } from "./answer-once.js";

/** How the turn's caller reads the answer, which decides what the turn sends it. */
export interface AnswerDelivery {
  /** Whether answer tokens are streamed as the model writes them (the model is asked for a stream). */
  tokens: boolean;
  /** Whether the completed status repeats the answer. */
  answerInStatus: boolean;
}

/**
 * A caller that reads only the final answer (a blocking send, or a client of the
 * answer-without-tokens extension) gets no token stream: the model is not asked for one. A 0.3
 * caller concatenates every answer text it gets: it gets the answer once (answer-once.ts).
 */
export function answerDelivery(request: RequestContext): AnswerDelivery {
  const once = readsAnswerOnce(request);
  return { tokens: !awaitsOnlyTheResult(request) && !once, answerInStatus: !once };
}

/**
 * Whether the turn's caller reads only its final answer: a blocking send, or a stream whose client
 * asked for {@link ANSWER_WITHOUT_TOKENS_EXTENSION}.
 */
function awaitsOnlyTheResult(request: RequestContext): boolean {
  const context = request.context;
  if (context === undefined) return false;
  if (isBlockingSend(context)) return true;
  // The SDK keeps only the requested extensions the card declares.
  if (!context.requestedExtensions?.includes(ANSWER_WITHOUT_TOKENS_EXTENSION)) return false;
  context.addActivatedExtension(ANSWER_WITHOUT_TOKENS_EXTENSION);
  return true;
}
