import type { TurnEvent } from "./types.js";

/**
 * The one-line description of a status update, e.g. `jira: Calling search_issues`, as chat clients
 * show who is working. The supervisor prefixes its subagents' updates already; a bare tool call of
 * another agent gets its name added. Undefined for events that are not progress.
 */
export function progressText(event: TurnEvent, self?: string): string | undefined {
  if (event.kind !== "status" || event.state !== "working" || !event.text) return undefined;
  const { agent, kind } = event.metadata ?? {};
  const toolActivity = kind === "tool-call" || kind === "tool-result";
  if (toolActivity && typeof agent === "string" && agent !== self && !event.text.startsWith(`${agent}:`)) {
    return `${agent}: ${event.text}`;
  }
  return event.text;
}

/**
 * The answer as it is streamed so far: each artifact's chunks appended (or replaced, when a chunk
 * says so), the artifacts joined by a line. For clients that show the answer while it is written.
 */
export class StreamedAnswer {
  private readonly parts = new Map<string, string>();

  /** Takes an artifact event; the answer so far, or undefined when the event is no part of it. */
  add(event: TurnEvent): string | undefined {
    if (event.kind !== "artifact") return undefined;
    const key = event.artifactId || String(this.parts.size);
    this.parts.set(key, event.append ? (this.parts.get(key) ?? "") + event.text : event.text);
    return this.text();
  }

  text(): string {
    return [...this.parts.values()].join("\n");
  }
}
