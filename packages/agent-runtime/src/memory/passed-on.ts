/**
 * How a supervisor passes the user's recalled memories on with a hop: an A2A service parameter
 * (this HTTP header), not the message. The subagent adds them to the user's message in a copy sent
 * to its model in that turn only (TurnContext.passedOnMemories, then memoryMiddleware), with the
 * user's authority as before, and never stores them in its checkpoints or task history: a memory the
 * user deletes, or "forget me", leaves nothing behind in a subagent's conversation, and later turns
 * there read only what the user still keeps. Whoever sends the header gets only their own turn
 * changed, as by typing the same words.
 */
export const MEMORIES_HEADER = "X-Switchboard-Memories";

/** What of the block passes on, in UTF-8 bytes: with base64 and the token, well inside a 16 KiB header limit. */
const MAX_PASSED_BYTES = 6_000;

/** The header's value for a recalled block (base64url of its UTF-8), cut at a line to fit. */
export function passOnMemories(block: string): string {
  const lines = block.split("\n");
  let kept = lines.length;
  let bytes = Buffer.byteLength(block);
  while (bytes > MAX_PASSED_BYTES && kept > 1) {
    kept -= 1;
    bytes = Buffer.byteLength(lines.slice(0, kept).join("\n"));
  }
  return Buffer.from(lines.slice(0, kept).join("\n")).toString("base64url");
}

/** The block a hop passed on, from a request's headers (as the A2A SDK keeps them); undefined if none. */
export function passedOnMemories(headers: Record<string, unknown> | undefined): string | undefined {
  const value = headers?.[MEMORIES_HEADER.toLowerCase()];
  if (typeof value !== "string" || !/^[A-Za-z0-9_-]+$/.test(value)) return undefined;
  const text = Buffer.from(value, "base64url").toString("utf8").trim();
  return text ? text.slice(0, MAX_PASSED_BYTES) : undefined;
}
