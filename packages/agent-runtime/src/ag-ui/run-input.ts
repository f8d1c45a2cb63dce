import { randomUUID } from "node:crypto";
import { type Message, type Part, Role, type SendMessageRequest } from "@a2a-js/sdk";
import type { ResumeEntry, RunAgentInput } from "@ag-ui/core";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import { textPart } from "../context/a2a-messages.js";
import { findBadParams } from "../http/request-checks.js";

/** What a run asks of the agent, as the A2A send the request handler takes. */
export interface RunRequest {
  input: RunAgentInput;
  send: SendMessageRequest;
}

/**
 * A RunAgentInput as one A2A message: threadId is the A2A contextId (the conversation; its thread
 * is keyed by the verified caller, so another user's threadId is another conversation), the text of
 * the last user message is the message, and resume entries answer the confirmation that ended the
 * previous run. An interrupt's id is the A2A task that asked, so a resume is a message to that task
 * carrying the decision as the data part the web chat's buttons send: the executor then decides
 * whether it answers (the asking principal, within the expiry, on the arguments shown) exactly as on
 * A2A. Returns why the input cannot run otherwise.
 */
export function runRequest(body: unknown): RunRequest | string {
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `not a RunAgentInput: ${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`;
  }
  const input = parsed.data as RunAgentInput;
  const resumed = resumeOf(input.resume ?? []);
  if (typeof resumed === "string") return resumed;
  const text = resumed ? "" : lastUserText(input);
  if (!resumed && !text.trim())
    return "the run has no user message to answer (messages[] ends with no user text)";
  const parts: Part[] = [];
  if (text) parts.push(textPart(text));
  if (resumed?.text) parts.push(textPart(resumed.text));
  if (resumed?.decision) parts.push(dataPart(resumed.decision));
  // The ids become MongoDB keys and log fields: the A2A bindings' own checks.
  const problem = findBadParams({
    message: { role: "user", contextId: input.threadId, taskId: resumed?.taskId, parts: [{ text: "" }] },
  });
  if (problem)
    return problem.replace("message.contextId", "threadId").replace("message.taskId", "resume[].interruptId");
  const message: Message = {
    messageId: randomUUID(),
    role: Role.ROLE_USER,
    parts,
    contextId: input.threadId,
    taskId: resumed?.taskId ?? "",
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return { input, send: { tenant: "", message, configuration: undefined, metadata: undefined } };
}

/** The decision a resume makes: every entry answers the one pause (its task), all the same way. */
function resumeOf(entries: ResumeEntry[]): Resumed | undefined | string {
  if (entries.length === 0) return undefined;
  const tasks = new Set(entries.map((entry) => entry.interruptId));
  if (tasks.size !== 1)
    return "resume[] answers interrupts of more than one run: answer the last run's interrupt";
  const answers = entries.map(answerOf);
  const bad = answers.find((answer) => typeof answer === "string");
  if (bad) return bad;
  const [first] = answers as Answer[];
  if (answers.some((answer) => JSON.stringify(answer) !== JSON.stringify(first))) {
    return "resume[] answers the same question two ways: send one answer";
  }
  return { taskId: [...tasks][0] as string, ...(first as Answer) };
}

/** A resume's answer: a decision on a confirmation, or the words answering a question. */
type Answer = { decision?: Record<string, unknown>; text?: string };
type Resumed = Answer & { taskId: string };

/**
 * A resume entry's answer: `cancelled` declines; a resolved payload says `{ decision: "approve" |
 * "decline" }` or `{ approved: true | false }`, and may echo the `argsHashes` it was shown (the
 * interrupt's metadata) so the approval holds for exactly those arguments; a question that is no
 * confirmation is answered in words, `{ text }`. Whether the answer counts is the executor's to say.
 */
function answerOf(entry: ResumeEntry): Answer | string {
  const payload = (entry.payload ?? {}) as {
    decision?: unknown;
    approved?: unknown;
    argsHashes?: unknown;
    text?: unknown;
  };
  const hashes = Array.isArray(payload.argsHashes) ? { argsHashes: payload.argsHashes } : {};
  if (entry.status === "cancelled") return { decision: { decision: "decline", ...hashes } };
  const decision =
    payload.decision === "approve" || payload.decision === "decline"
      ? payload.decision
      : typeof payload.approved === "boolean"
        ? payload.approved
          ? "approve"
          : "decline"
        : undefined;
  if (decision) return { decision: { decision, ...hashes } };
  if (typeof payload.text === "string" && payload.text.trim()) return { text: payload.text };
  return 'resume[].payload must say { "decision": "approve" } or { "decision": "decline" } (or { "approved": true | false }), or answer a question in { "text": "..." }';
}

function dataPart(value: Record<string, unknown>): Part {
  return {
    content: { $case: "data", value },
    metadata: undefined,
    filename: "",
    mediaType: "application/json",
  };
}

/** The newest user message's text (its text parts joined when it has several). */
function lastUserText(input: RunAgentInput): string {
  const last = input.messages.findLast((message) => message.role === "user");
  if (!last) return "";
  const { content } = last as { content: unknown };
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { type?: string; text?: string }) => (part.type === "text" ? (part.text ?? "") : ""))
    .join("");
}
