import type { ToolResource } from "../authz/request.js";
import type { Decision, DecisionAnswer } from "./decision.js";

/**
 * A paused turn asks the user something. Two kinds of pauses exist:
 * - a change confirmation ({@link ChangeConfirmation}, asked by graph/guard-calls.ts), answered
 *   with an explicit decision; several changes asked for at once are confirmed or declined together;
 * - a question relayed from elsewhere (the supervisor relaying a subagent's question), resumed with
 *   the user's own answer ({@link RelayedAnswer}).
 * Each records the A2A task that asked and who it asked: only a message to that task, from that
 * principal, answers it (executor.ts); any other message is a new turn.
 */
export interface ChangeConfirmation {
  /** The change, in words, as the tool's `confirm` puts it. */
  change: string;
  /** The tool that would make it and what it acts on: what a policy on approving it decides on. */
  tool?: string;
  resource?: ToolResource;
  /** Every argument the call runs with (defaults filled): shown whole in the question. */
  args?: Record<string, unknown>;
  /** SHA-256 of the canonical JSON (RFC 8785) of `{ tool, args }`: what an approval is bound to. */
  argsHash?: string;
  /** The A2A task that asked, and the subject of the principal asked. */
  taskId?: string;
  subject?: string;
  /** When it was asked (ms since the epoch): the answer must come within CONFIRMATION_EXPIRY_SECONDS. */
  askedAt?: number;
}

/**
 * What a change's pause is resumed with: the decision, and (to approve) the hash of the arguments
 * that were shown, which guard-calls.ts checks against the call it is about to run. `reason` says
 * why a change is declined without the user declining it (it expired).
 */
export interface ChangeResume {
  decision: Decision;
  argsHash?: string;
  reason?: string;
}

export interface RelayedQuestion {
  question: string;
  /** A relayed confirmation's hashes of the arguments it shows: the client sends them back with its decision. */
  argsHashes?: string[];
  /** The A2A task that asked, and the subject of the principal asked. */
  taskId?: string;
  subject?: string;
}

/**
 * What a relayed question is resumed with: the user's words, and their explicit decision when the
 * message was one (a decision part, or the whole message an exact yes/no), which the relay passes
 * on as a decision part: only the user's own answer ever reaches the asking agent this way.
 */
export interface RelayedAnswer {
  text: string;
  decision?: DecisionAnswer;
}

/** An interrupt a turn is paused on: LangGraph's id for it, and what it asks. */
export interface PendingInterrupt {
  id: string;
  value: unknown;
}

/** The changes among the interrupts a turn is paused on. */
export function pendingChanges(pending: PendingInterrupt[]): ChangeConfirmation[] {
  return pending.map(({ value }) => value).filter(isChangeConfirmation);
}

export function isChangeConfirmation(value: unknown): value is ChangeConfirmation {
  return (
    typeof value === "object" && value !== null && typeof (value as ChangeConfirmation).change === "string"
  );
}

export function isRelayedQuestion(value: unknown): value is RelayedQuestion {
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

/** Who asked a pause: its task and principal (undefined on pauses stored before they were recorded). */
export function askedBy(value: unknown): { taskId?: string; subject?: string } {
  if (isChangeConfirmation(value) || isRelayedQuestion(value)) {
    return { taskId: value.taskId, subject: value.subject };
  }
  return {};
}

/** The question to show the user for the interrupts a turn is paused on. */
export function questionFor(pending: PendingInterrupt[]): string {
  const changes = pendingChanges(pending);
  if (changes.length > 0) {
    const list =
      changes.length === 1
        ? changeText(changes[0] as ChangeConfirmation)
        : changes.map((change) => `- ${changeText(change).replaceAll("\n", "\n  ")}`).join("\n");
    return `${list}\nShall I go ahead? Answer yes or no.`;
  }
  const relayed = pending.map(({ value }) => value).find(isRelayedQuestion);
  return relayed?.question ?? "The agent is waiting for your answer.";
}

/**
 * A change as the user is shown it: the tool's sentence, then every argument the call will be sent
 * with, each value whole (a string as written, anything else as JSON): nothing runs that was not shown.
 */
export function changeText({ change, tool, args }: ChangeConfirmation): string {
  const entries = Object.entries(args ?? {}).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return change;
  const lines = entries.map(([name, value]) => {
    const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
    return `  ${name}: ${text.replaceAll("\n", "\n    ")}`;
  });
  return `${change}\n${tool ? `${tool} will be sent` : "Sent"} exactly:\n${lines.join("\n")}`;
}
