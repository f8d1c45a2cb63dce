import type { Part } from "@a2a-js/sdk";
import { readDecision } from "./decision.js";
import {
  askedBy,
  type ChangeResume,
  isChangeConfirmation,
  isRelayedQuestion,
  type PendingInterrupt,
  pendingChanges,
  questionFor,
  type RelayedAnswer,
} from "./interrupts.js";

/** The message a turn got, as far as answering a pause goes. */
export interface Answering {
  /** Its text parts (a decision part is read apart). */
  parts: readonly Part[];
  /** The task it names (A2A taskId); undefined for a message that names none. */
  taskId: string | undefined;
  /** The verified caller's subject. */
  subject: string;
  now: number;
  /** CONFIRMATION_EXPIRY_SECONDS, in ms. */
  expiryMs: number;
}

/**
 * What a message does to the pauses its thread waits on:
 * - `new`: it answers none of them (there are none, or it does not name the task that asked): a new
 *   turn, and whatever waited is not run;
 * - `closed`: a decision for a task with nothing waiting (already answered, or given up): nothing runs;
 * - `ask`: the question again, led by why the message did not answer it (no explicit decision, or
 *   another principal's);
 * - `resume`: the values to resume each interrupt with, by interrupt id.
 * Only the asking task's own principal answers (an approver the policy names is checked after, in
 * approval.ts), only explicitly (decision.ts), and only within the expiry: an expired change is
 * resumed as declined, so the model can tell the user it did not run.
 */
export type PauseAnswer =
  | { kind: "new" }
  | { kind: "closed"; text: string }
  | { kind: "ask"; question: string }
  | { kind: "resume"; resume: Record<string, ChangeResume | RelayedAnswer> };

export const CLOSED_QUESTION =
  "Nothing was run: the question this answers is no longer open (it was answered, or the conversation went on without it). Ask again if the change is still wanted.";

export function answerFor(pending: PendingInterrupt[], message: Answering): PauseAnswer {
  const decision = readDecision(message.parts);
  const asking =
    message.taskId !== undefined &&
    pending.length > 0 &&
    pending.every(({ value }) => askedBy(value).taskId === message.taskId);
  if (!asking)
    return message.taskId !== undefined && decision
      ? { kind: "closed", text: CLOSED_QUESTION }
      : { kind: "new" };

  const question = questionFor(pending);
  if (pending.some(({ value }) => askedBy(value).subject !== message.subject)) {
    return {
      kind: "ask",
      question: `Not allowed: ${message.subject} may not approve or decline what was asked of another user.\n${question}`,
    };
  }
  const text = textOf(message.parts);
  const relayed: RelayedAnswer = { text, ...(decision ? { decision } : {}) };
  const byId = (value: (pause: PendingInterrupt) => ChangeResume | RelayedAnswer) =>
    Object.fromEntries(pending.map((pause) => [pause.id, value(pause)]));
  const changes = pendingChanges(pending);
  if (changes.length === 0) return { kind: "resume", resume: byId(() => relayed) };

  const expired = changes.some(
    ({ askedAt }) => askedAt === undefined || message.now - askedAt > message.expiryMs,
  );
  if (expired) {
    const minutes = Math.round(message.expiryMs / 60_000);
    return {
      kind: "resume",
      resume: byId(({ value }) =>
        isChangeConfirmation(value)
          ? {
              decision: "decline",
              reason: `${value.tool ?? "The change"} was not run and nothing was changed: the user's confirmation came after it expired (a change waits ${minutes} minutes for its answer; CONFIRMATION_EXPIRY_SECONDS). If it is still wanted, call the tool again and the user will be asked again.`,
            }
          : relayed,
      ),
    };
  }
  if (!decision) {
    return { kind: "ask", question: `Please answer yes or no: nothing runs until you do.\n${question}` };
  }
  // A decision part that names the arguments its sender was shown holds for exactly those.
  if (
    decision.argsHashes &&
    !sameHashes(
      decision.argsHashes,
      changes.map(({ argsHash }) => argsHash),
    )
  ) {
    return {
      kind: "ask",
      question: `Nothing ran: the answer was for other arguments than the ones waiting now.\n${question}`,
    };
  }
  return {
    kind: "resume",
    resume: byId(({ value }) =>
      isChangeConfirmation(value)
        ? { decision: decision.decision, ...(value.argsHash ? { argsHash: value.argsHash } : {}) }
        : relayed,
    ),
  };
}

/**
 * What a question's status message carries for clients: each change as it will run and the hash a
 * decision part echoes (`argsHashes`); a relayed confirmation passes on the hashes it was given.
 */
export function questionMetadata(pending: PendingInterrupt[]): Record<string, unknown> | undefined {
  const changes = pendingChanges(pending);
  if (changes.length > 0) {
    return {
      confirmation: { changes: changes.map(({ tool, args, argsHash }) => ({ tool, args, argsHash })) },
    };
  }
  const relayed = pending.map(({ value }) => value).find(isRelayedQuestion);
  if (!relayed?.argsHashes) return undefined;
  return { confirmation: { changes: relayed.argsHashes.map((argsHash) => ({ argsHash })) } };
}

function sameHashes(given: string[], waiting: Array<string | undefined>): boolean {
  const sorted = (list: Array<string | undefined>) => [...list].sort().join(",");
  return given.length === waiting.length && sorted(given) === sorted(waiting);
}

function textOf(parts: readonly Part[]): string {
  return parts
    .map((part) => (part.content?.$case === "text" ? part.content.value : ""))
    .filter(Boolean)
    .join("\n");
}
