import type { AgentConnection, SendInput } from "@switchboard/a2a-client";

/**
 * One streamed turn as lines a test can order-check: `status:<state>:<text>` per status update and
 * `answer` for the final artifact.
 */
export async function streamTranscript(connection: AgentConnection, input: SendInput): Promise<string[]> {
  const lines: string[] = [];
  for await (const event of connection.stream(input)) {
    if (event.kind === "status") lines.push(`status:${event.state}:${event.text ?? ""}`);
    if (event.kind === "artifact" && event.lastChunk) lines.push("answer");
  }
  return lines;
}
