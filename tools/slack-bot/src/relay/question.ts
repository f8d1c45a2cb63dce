/**
 * How agents word a change they ask to confirm (agent-runtime's turn/interrupts.ts), and how the
 * supervisor relays a subagent's question; the web chat reads them the same way (client/conversation.ts).
 */
const CONFIRMATION = /\s*Shall I go ahead\? Answer yes or no\.\s*$/;
const RELAYED = /^The ([\w-]+) agent asks: /;

/** The words Approve and Decline answer with: what a person types in the terminal chat. */
export const APPROVE = "yes";
export const DECLINE = "no";

export interface Question {
  agent?: string;
  /** The question without its answering instructions: for a confirmation, the change. */
  text: string;
  confirmation: boolean;
}

export function readQuestion(question: string): Question {
  const agent = RELAYED.exec(question)?.[1];
  const text = question.replace(RELAYED, "");
  const confirmation = CONFIRMATION.test(text);
  return { ...(agent ? { agent } : {}), text: text.replace(CONFIRMATION, "").trim(), confirmation };
}
