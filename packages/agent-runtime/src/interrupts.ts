import type { HITLRequest, HITLResponse } from "langchain";

/**
 * A paused turn asks the user something. Two kinds of pauses exist:
 * - a change confirmation from the human-in-the-loop middleware (`HITLRequest`), answered yes/no;
 * - a question relayed from elsewhere (the supervisor relaying a subagent's question), `{ question }`,
 *   resumed with the user's words as they are.
 */
export interface RelayedQuestion {
  question: string;
}

export type Answer = "approve" | "decline" | "unclear";

const APPROVE = /^\s*(y|yes|yep|yeah|approve[ds]?|ok(ay)?|confirm(ed)?|go ahead|do it|sure|proceed)\b/i;
const DECLINE = /^\s*(n|no|nope|decline[ds]?|reject(ed)?|cancel|stop|abort|don'?t)\b/i;

export function classifyAnswer(text: string): Answer {
  if (DECLINE.test(text)) return "decline";
  if (APPROVE.test(text)) return "approve";
  return "unclear";
}

function isHitlRequest(value: unknown): value is HITLRequest {
  return typeof value === "object" && value !== null && Array.isArray((value as HITLRequest).actionRequests);
}

function isRelayedQuestion(value: unknown): value is RelayedQuestion {
  return (
    typeof value === "object" && value !== null && typeof (value as RelayedQuestion).question === "string"
  );
}

/** The question to show the user for a pending interrupt. */
export function questionFor(value: unknown): string {
  if (isHitlRequest(value)) {
    const changes = value.actionRequests.map((action) => action.description ?? action.name);
    const list = changes.length === 1 ? changes[0] : changes.map((change) => `- ${change}`).join("\n");
    return `${list}\nShall I go ahead? Answer yes or no.`;
  }
  if (isRelayedQuestion(value)) return value.question;
  return "The agent is waiting for your answer.";
}

/**
 * The value to resume a pending interrupt with, or undefined when the answer to a confirmation is
 * neither yes nor no (the user is asked again; nothing runs).
 */
export function resumeValueFor(value: unknown, answerText: string): unknown {
  if (!isHitlRequest(value)) return answerText;
  const answer = classifyAnswer(answerText);
  if (answer === "unclear") return undefined;
  const response: HITLResponse = {
    decisions: value.actionRequests.map((action) =>
      answer === "approve"
        ? { type: "approve" }
        : {
            type: "reject",
            message: `The user declined: ${action.name} was not run and nothing was changed.`,
          },
    ),
  };
  return response;
}
