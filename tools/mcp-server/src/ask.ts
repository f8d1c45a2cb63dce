import {
  APPROVE,
  collectTurn,
  DECLINE,
  decisionWord,
  progressText,
  type Question,
  readQuestion,
  type SendInput,
  StreamedAnswer,
  type TurnEvent,
  type TurnState,
} from "@switchboard/a2a-client";
import { isSwitchboardError } from "@switchboard/common";
import type { ConversationHistory } from "./conversation.js";
import type { Supervisor } from "./supervisor.js";

/** What the MCP client can do for one call of the ask tool. */
export interface AskContext {
  /** The user's own token (undefined under AUTH_MODE=none). */
  token: string | undefined;
  signal: AbortSignal;
  /**
   * One line of the supervisor's progress ("jira: Calling search_issues"), or the answer so far
   * while it is written (its last ANSWER_PROGRESS_CHARS).
   */
  progress(text: string): Promise<void>;
  /** Asks the user to approve a change in the client (MCP elicitation); undefined when the client cannot. */
  confirm: ((question: Question) => Promise<"approve" | "decline" | "cancel">) | undefined;
}

export interface Answer {
  conversationId: string;
  state: TurnState;
  text: string;
  /** Where the change that waits is approved when the client could not ask: the web chat's page of the conversation. */
  approveAt?: string;
}

/** Confirmations answered in one call at most: each answer may lead the supervisor to ask about the next change. */
const MAX_CONFIRMATIONS = 10;

/**
 * One message to Switchboard, as the user: the turn streams (each status a progress line), and a
 * change it asks to confirm is put to the user through the client when it can ask, the answer
 * resuming the same task; else the answer says where to approve it (the web chat).
 */
export async function ask(
  deps: { supervisor: Supervisor; webUrl: string },
  request: { message: string; conversationId?: string | undefined },
  context: AskContext,
): Promise<Answer> {
  const { token, signal } = context;
  let input: SendInput = {
    text: request.message,
    token,
    signal,
    ...(request.conversationId ? await continuing(deps.supervisor, request, token) : {}),
  };
  for (let round = 0; ; round++) {
    const result = await collectTurn(reporting(deps.supervisor.turn(input), context.progress));
    const conversationId = result.contextId || input.contextId || "";
    const answer = { conversationId, state: result.state };
    if (result.state !== "input-required") return { ...answer, text: result.text };
    const question = readQuestion(result.question ?? "");
    if (!question.confirmation) {
      return {
        ...answer,
        text: `${result.question ?? result.text}\n\n(Answer with ask_switchboard in conversation ${conversationId}.)`,
      };
    }
    const decision =
      context.confirm && round < MAX_CONFIRMATIONS ? await context.confirm(question) : "cancel";
    if (decision === "cancel") {
      const approveAt = `${deps.webUrl}/c/${encodeURIComponent(conversationId)}`;
      return {
        ...answer,
        text: `${question.agent ? `The ${question.agent} agent asks to make this change` : "Switchboard asks to make this change"}:\n${question.text}\n\nNothing was changed. Approve or decline it in the web chat: ${approveAt}`,
        approveAt,
      };
    }
    input = {
      text: decision === "approve" ? APPROVE : DECLINE,
      decision,
      taskId: result.taskId,
      contextId: conversationId,
      token,
      signal,
      ...(result.argsHashes ? { argsHashes: result.argsHashes } : {}),
    };
  }
}

/**
 * A message in an existing conversation: when its last task waits for an answer (a question, or a
 * change to confirm), the message answers that task, as in the web chat.
 */
async function continuing(
  supervisor: Supervisor,
  request: { message: string; conversationId?: string | undefined },
  token: string | undefined,
): Promise<Pick<SendInput, "contextId" | "taskId" | "decision">> {
  const contextId = request.conversationId as string;
  const history = await supervisor
    .get<ConversationHistory>(`/conversations/${encodeURIComponent(contextId)}`, token)
    .catch((error: unknown) => {
      // None of the user's own by that id (404): the message starts it.
      if (isSwitchboardError(error) && error.category === "user") return undefined;
      throw error;
    });
  const last = history?.tasks.at(-1);
  if (last?.state !== "input-required") return { contextId };
  const decision = decisionWord(request.message);
  return { contextId, taskId: last.taskId, ...(decision ? { decision } : {}) };
}

/**
 * How much of the answer a progress message shows while it is written: its end, so a client that
 * shows the latest message reads the newest words (an MCP tool's result comes only once, whole).
 */
export const ANSWER_PROGRESS_CHARS = 1_000;

/** The turn's events passed on, each progress line and each step of the answer reported as it comes. */
async function* reporting(
  events: AsyncIterable<TurnEvent>,
  progress: (text: string) => Promise<void>,
): AsyncGenerator<TurnEvent> {
  const answer = new StreamedAnswer();
  for await (const event of events) {
    const line = progressText(event, "supervisor") ?? answer.add(event);
    if (line)
      await progress(line.length > ANSWER_PROGRESS_CHARS ? `…${line.slice(-ANSWER_PROGRESS_CHARS)}` : line);
    yield event;
  }
}
