// The errors the saver raises on its own: a value past MongoDB's limit, and a reference to nothing.
import { SwitchboardError } from "@switchboard/common";

/** MongoDB's limit for one document, with room for the keys around a stored value. */
export const MAX_VALUE_BYTES = 16 * 1024 * 1024 - 64 * 1024;

/** A single value past MongoDB's document limit is refused before anything is written. */
export function refuseOversized(bytes: number): void {
  if (bytes <= MAX_VALUE_BYTES) return;
  throw new SwitchboardError(
    "checkpointer.too-large",
    "user",
    "This turn holds a single value past MongoDB's 16 MB document limit, so it was not saved. " +
      "Ask for less data at once (or start a new conversation); the conversation so far is kept.",
  );
}

/** A stored reference whose target is gone (documents deleted by hand, or another saver's). */
export function missing(threadId: string, what: string): SwitchboardError {
  return new SwitchboardError(
    "checkpointer.corrupt",
    "system",
    `Conversation ${threadId} refers to ${what}, which is not stored (was it deleted by hand?).`,
  );
}
