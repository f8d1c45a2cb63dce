import type { ToolResource } from "../authz/request.js";

/**
 * A paused turn asks the user something. Two kinds of pauses exist:
 * - a change confirmation ({@link ChangeConfirmation}, see confirm-changes.ts), answered yes/no;
 *   several changes asked for at once are confirmed or declined together;
 * - a question relayed from elsewhere (the supervisor relaying a subagent's question), `{ question }`,
 *   resumed with the user's words as they are.
 */
export interface ChangeConfirmation {
  /** The change, in words, as the tool's `confirm` puts it. */
  change: string;
  /** The tool that would make it and what it acts on: what a policy on approving it decides on. */
  tool?: string;
  resource?: ToolResource;
}

export type Decision = "approve" | "decline";

export interface RelayedQuestion {
  question: string;
}

/** An interrupt a turn is paused on: LangGraph's id for it, and what it asks. */
export interface PendingInterrupt {
  id: string;
  value: unknown;
}

export type Answer = Decision | "unclear";

const APPROVE = /^\s*(y|yes|yep|yeah|approve[ds]?|ok(ay)?|confirm(ed)?|go ahead|do it|sure|proceed)\b/i;
const DECLINE = /^\s*(n|no|nope|decline[ds]?|reject(ed)?|cancel|stop|abort|don'?t)\b/i;

export function classifyAnswer(text: string): Answer {
  if (DECLINE.test(text)) return "decline";
  if (APPROVE.test(text)) return "approve";
  return "unclear";
}

/** The changes among the interrupts a turn is paused on. */
export function pendingChanges(pending: PendingInterrupt[]): ChangeConfirmation[] {
  return pending.map(({ value }) => value).filter(isChangeConfirmation);
}

function isChangeConfirmation(value: unknown): value is ChangeConfirmation {
  return (
    typeof value === "object" && value !== null && typeof (value as ChangeConfirmation).change === "string"
  );
}

function isRelayedQuestion(value: unknown): value is RelayedQuestion {
  return (
    typeof value === "object" && value !== null && typeof (value as RelayedQuestion).question === "string"
  );
}

/**
 * A confirmation asked by langchain's human-in-the-loop step, which agents used before
 * confirm-changes.ts: the graph no longer has that step, so such a pause cannot be resumed.
 */
export function isStepConfirmation(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as { actionRequests?: unknown }).actionRequests)
  );
}

/** The question to show the user for the interrupts a turn is paused on. */
export function questionFor(pending: PendingInterrupt[]): string {
  const changes = pending.map(({ value }) => value).filter(isChangeConfirmation);
  if (changes.length > 0) {
    const list =
      changes.length === 1 ? changes[0]?.change : changes.map(({ change }) => `- ${change}`).join("\n");
    return `${list}\nShall I go ahead? Answer yes or no.`;
  }
  const relayed = pending.map(({ value }) => value).find(isRelayedQuestion);
  return relayed?.question ?? "The agent is waiting for your answer.";
}

/**
 * What to resume the pending interrupts with (by interrupt id), or undefined when the answer to a
 * confirmation is neither yes nor no (the user is asked again; nothing runs).
 */
export function resumeValuesFor(
  pending: PendingInterrupt[],
  answerText: string,
): Record<string, unknown> | undefined {
  const byId = (value: (pause: PendingInterrupt) => unknown) =>
    Object.fromEntries(pending.map((pause) => [pause.id, value(pause)]));
  if (!pending.some(({ value }) => isChangeConfirmation(value))) return byId(() => answerText);
  const answer = classifyAnswer(answerText);
  if (answer === "unclear") return undefined;
  return byId(({ value }) => (isChangeConfirmation(value) ? answer : answerText));
}
