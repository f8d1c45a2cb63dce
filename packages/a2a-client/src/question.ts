/**
 * How agents word what they ask (agent-runtime's turn/interrupts.ts) and how the supervisor relays a
 * subagent's question, read in one place for every chat client (the web chat, the Slack relay): a
 * change to confirm becomes Approve / Decline, answered with the words a person would type.
 */
const CONFIRMATION = /\s*Shall I go ahead\? Answer yes or no\.\s*$/;
const RELAYED = /^The ([\w-]+) agent asks: /;
/** An answer by someone the policy does not let decide another user's change (interrupts.ts' approvalRefused). */
const REFUSED_APPROVAL = /^(Not allowed: [^\n]* may not approve or decline [^\n]*)\n/;

/**
 * The header naming someone other than the caller who answers the caller's question (Approve pressed
 * by a team lead): `Switchboard-Approver: Bearer <their own JWT>`. The agent verifies it as it does
 * the caller's token and decides, where the change runs, whether they may (the `approve` action).
 */
export const APPROVER_HEADER = "Switchboard-Approver";

/** The words Approve and Decline answer with: what a person types in the terminal chat. */
export const APPROVE = "yes";
export const DECLINE = "no";

const APPROVE_WORDS = new Set(["y", "yes", "approve", "approved", "confirm", "confirmed"]);
const DECLINE_WORDS = new Set(["n", "no", "decline", "declined", "reject", "rejected", "cancel"]);

/**
 * The decision an answer's words make: only when the whole answer, trimmed, in any case and with
 * one closing "." or "!", is one of the exact words above. "ok wait, don't do that" or
 * "yes… no, cancel it" decide nothing (the agent asks again). Agents read answers with this rule
 * (agent-runtime's turn/decision.ts), and clients send Approve and Decline by it.
 */
export function decisionWord(text: string): "approve" | "decline" | undefined {
  const word = text.trim().toLowerCase().replace(/[.!]$/, "");
  if (APPROVE_WORDS.has(word)) return "approve";
  if (DECLINE_WORDS.has(word)) return "decline";
  return undefined;
}

/**
 * The hashes of the arguments a confirmation shows (agent-runtime puts them on the question's
 * status message as `confirmation.changes[].argsHash`): a decision sent with them
 * (`SendInput.argsHashes`) holds only for exactly those arguments.
 */
export function shownArgsHashes(metadata: Record<string, unknown> | undefined): string[] | undefined {
  const changes = (metadata?.confirmation as { changes?: unknown } | undefined)?.changes;
  if (!Array.isArray(changes)) return undefined;
  const hashes = changes.map((change) => (change as { argsHash?: unknown } | null)?.argsHash);
  return hashes.every((hash): hash is string => typeof hash === "string") && hashes.length > 0
    ? hashes
    : undefined;
}

export interface Question {
  /** The agent that asks, when the supervisor relays it. */
  agent?: string;
  /** The question without its answering instructions: for a confirmation, the change. */
  text: string;
  /** Whether it asks yes or no to a change (Approve / Decline), rather than for words. */
  confirmation: boolean;
  /** The change was asked again because the last answer came from someone not allowed to give it: why. */
  refusedApproval?: string;
}

export function readQuestion(question: string): Question {
  const agent = RELAYED.exec(question)?.[1];
  let text = question.replace(RELAYED, "");
  const refusedApproval = REFUSED_APPROVAL.exec(text)?.[1];
  if (refusedApproval) text = text.replace(REFUSED_APPROVAL, "");
  const confirmation = CONFIRMATION.test(text);
  return {
    ...(agent ? { agent } : {}),
    text: text.replace(CONFIRMATION, "").trim(),
    confirmation,
    ...(refusedApproval ? { refusedApproval } : {}),
  };
}
