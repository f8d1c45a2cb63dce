import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";

/** Whether a streamed chunk carries something the model wrote (a content token, tool-call arguments). */
function isToken(chunk: object): boolean {
  const delta = (chunk as { choices?: Array<{ delta?: { content?: unknown; tool_calls?: unknown } }> })
    .choices?.[0]?.delta;
  return (typeof delta?.content === "string" && delta.content !== "") || delta?.tool_calls !== undefined;
}

/** How many tokens a reply's chunks hold: a non-streamed reply is ready when the last would be. */
export function tokenCount(chunks: object[]): number {
  return chunks.filter(isToken).length;
}

/**
 * Writes a streamed reply's chunks as a model writes them: the first token at once (the time to it
 * is the server's `latencyMs`), each later one `intervalMs` after the one before, then the rest.
 */
export async function writePaced(res: ServerResponse, chunks: object[], intervalMs: number): Promise<void> {
  let tokens = 0;
  for (const chunk of chunks) {
    if (res.destroyed) return;
    if (isToken(chunk) && tokens++ > 0) await sleep(intervalMs);
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  }
}
