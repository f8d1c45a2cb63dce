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
