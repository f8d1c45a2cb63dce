import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { type BaseMessage, HumanMessage, RemoveMessage } from "@langchain/core/messages";
import { Command, REMOVE_ALL_MESSAGES } from "@langchain/langgraph";
import { type Logger, SwitchboardError } from "@switchboard/common";
import { LLM_ERROR } from "@switchboard/llm";
import { countTokensApproximately, createMiddleware, summarizationMiddleware } from "langchain";
import { switchboardErrorIn } from "../turn/failure.js";

/** How much of a conversation the model is sent (MAX_CONTEXT_TOKENS, MIN_MESSAGES_TO_KEEP). */
export interface ContextBudget {
  /** Once the messages reach this many tokens (estimated), the older ones are summarized. */
  maxTokens: number;
  /** The newest messages, always sent verbatim; a tool call and its results are never split. */
  keepMessages: number;
}

/** Starts the summary message, so the model (and a test) can tell it from what the user wrote. */
export const SUMMARY_PREFIX = "Summary of the earlier conversation:";

/** A summary of older messages, and the messages after them sent verbatim. */
export interface Summarized {
  summary: HumanMessage;
  kept: BaseMessage[];
}

/**
 * Summarizes the older part of `messages` when they are over budget; undefined when they fit. `force`:
 * whatever the budget (the provider said the conversation is too long for the model); undefined when
 * there is nothing older than the messages kept.
 */
export type Summarize = (
  messages: BaseMessage[],
  signal?: AbortSignal,
  force?: boolean,
) => Promise<Summarized | undefined>;

// What the middleware's beforeModel hook is called with and returns, as far as we use it.
type SummaryHook = (
  state: { messages: BaseMessage[] },
  runtime: { context: Record<string, never>; signal?: AbortSignal },
) => Promise<{ messages?: BaseMessage[] } | undefined>;

// createSummary in langchain's middleware turns a failed model call (or nothing left after trimming)
// into summary text instead of an error; these are its words.
const FAILED_SUMMARY = /^(Error generating summary:|Previous conversation was too long to summarize\.)/;

/**
 * The summarizing step of langchain's `summarizationMiddleware`, run on any list of messages, so
 * the subagents (through {@link contextBudgetMiddleware}) and the supervisor's own graph (through
 * {@link boundedHistory}) share one policy: over `maxTokens`, everything before the newest
 * `keepMessages` becomes one summary written by `model`, and the next summary folds in the last.
 * Tokens are estimated from characters (never a tokenizer download). The summarizer reads at most
 * `maxTokens` of what it summarizes, newest first (the middleware's default is 4000, which would
 * drop the previous summary from every new one), so its request fits the same budget. A failed
 * summary call leaves the messages as they are (sent whole; the next model call tries again)
 * instead of replacing the history with the error text, which the middleware alone would store.
 */
export function contextSummarizer(model: BaseChatModel, budget: ContextBudget, logger: Logger): Summarize {
  const hookFor = (trigger: { tokens: number } | { messages: number }) => {
    const { beforeModel } = summarizationMiddleware({
      model,
      trigger,
      keep: { messages: budget.keepMessages },
      tokenCounter: (messages) => countTokensApproximately(messages),
      trimTokensToSummarize: budget.maxTokens,
      summaryPrefix: SUMMARY_PREFIX,
    });
    const hook = (typeof beforeModel === "function" ? beforeModel : beforeModel?.hook) as unknown as
      | SummaryHook
      | undefined;
    if (!hook) throw new Error("langchain's summarizationMiddleware has no beforeModel hook");
    return hook;
  };
  const overBudget = hookFor({ tokens: budget.maxTokens });
  // Any conversation with messages older than the ones kept.
  const always = hookFor({ messages: budget.keepMessages + 1 });

  return async (messages, signal, force = false) => {
    // An empty context: the options above apply, not per-call overrides.
    const update = await (force ? always : overBudget)({ messages }, { context: {}, signal });
    const [, summary, ...kept] = update?.messages ?? [];
    if (!summary || !HumanMessage.isInstance(summary)) return undefined;
    const text = typeof summary.content === "string" ? summary.content : "";
    const body = text.slice(SUMMARY_PREFIX.length).trim();
    if (FAILED_SUMMARY.test(body)) {
      logger.warn(
        { reason: body },
        "could not summarize the older conversation; sending all of it this time",
      );
      return undefined;
    }
    logger.debug(
      { summarized: messages.length - kept.length, kept: kept.length },
      "summarized the older conversation",
    );
    return { summary, kept };
  };
}

/**
 * For `createAgent`: a conversation over budget is replaced, in the state and so in the checkpoint,
 * by the summary and the messages kept (what `summarizationMiddleware` does), so the stored history
 * of a subagent shrinks with it. This runs inside the model call's own step (the model's answer and
 * the rewritten history are one update): as a before-model hook it would add a step, and a
 * checkpoint written for nothing, to every model call, nearly all of which fit the budget.
 */
export function contextBudgetMiddleware(summarize: Summarize, budget: ContextBudget) {
  return createMiddleware({
    name: "SwitchboardContextBudget",
    wrapModelCall: async (request, handler) => {
      const signal = request.runtime.signal;
      let messages = request.messages;
      const answer = await retryWhenTooLong(budget, async (refused) => {
        const result = await summarize(messages, signal, refused !== undefined);
        if (result) messages = [result.summary, ...result.kept];
        else if (refused) throw refused;
        return handler({ ...request, messages });
      });
      if (messages === request.messages) return answer;
      // The agent adds the answer itself, before this update: the answer goes last again here.
      return new Command({
        update: { messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), ...messages, answer] },
      });
    },
  });
}

/**
 * A model call the provider may refuse as longer than the model takes (MAX_CONTEXT_TOKENS above its
 * window): `attempt` is called again with that refusal, to summarize now, whatever the budget, and
 * send once more (it throws the refusal back when there is nothing to summarize). A second refusal
 * ends the turn saying what to change.
 */
export async function retryWhenTooLong<T>(
  budget: ContextBudget,
  attempt: (refused?: SwitchboardError) => Promise<T>,
): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    const tooLong = contextTooLong(error);
    if (!tooLong) throw error;
    try {
      return await attempt(tooLong);
    } catch (again) {
      const stillLong = contextTooLong(again);
      throw stillLong ? stillTooLong(stillLong, budget) : again;
    }
  }
}

function contextTooLong(error: unknown): SwitchboardError | undefined {
  const known = switchboardErrorIn(error);
  return known?.code === LLM_ERROR.context ? known : undefined;
}

/** The provider's too-long error, once summarizing did not make the conversation fit. */
function stillTooLong(error: SwitchboardError, budget: ContextBudget): SwitchboardError {
  const what = error.message.split(": ")[0]?.replace(" is too long for ", " is still too long for ");
  return new SwitchboardError(
    error.code,
    "user",
    `${what}, even with its older messages summarized: start a new conversation, or set MAX_CONTEXT_TOKENS (now ${budget.maxTokens}) below the model's context window and MIN_MESSAGES_TO_KEEP (now ${budget.keepMessages}) lower.`,
  );
}

/** A summary kept beside a whole history: its text, and the id of the newest message it covers. */
export interface ContextSummary {
  text: string;
  through: string;
}

const SUMMARY_ID = "context-summary";

/**
 * What to send the model from a whole history that stays stored as it is (the supervisor's): the
 * stored summary (if any) and the messages after it, summarized again once those are over budget.
 * `summary` is set when it changed, for the caller to store. `force`: summarized whatever the budget.
 */
export async function boundedHistory(
  messages: BaseMessage[],
  stored: ContextSummary | undefined,
  summarize: Summarize,
  signal?: AbortSignal,
  force = false,
): Promise<{ messages: BaseMessage[]; summary?: ContextSummary }> {
  const covered = stored ? messages.findIndex((message) => message.id === stored.through) : -1;
  // A summary whose last message is gone (never expected) is dropped: the whole history is used.
  const view =
    stored && covered >= 0 ? [summaryMessage(stored.text), ...messages.slice(covered + 1)] : messages.slice();
  const result = await summarize(view, signal, force);
  if (!result) return { messages: view };

  const firstKept = result.kept[0];
  const keptAt = firstKept ? messages.findIndex((message) => message.id === firstKept.id) : messages.length;
  const through = messages[keptAt - 1]?.id;
  const text = typeof result.summary.content === "string" ? result.summary.content : "";
  const sent = [summaryMessage(text), ...result.kept];
  return through && keptAt > 0 ? { messages: sent, summary: { text, through } } : { messages: sent };
}

function summaryMessage(text: string): HumanMessage {
  return new HumanMessage({
    id: SUMMARY_ID,
    content: text,
    additional_kwargs: { lc_source: "summarization" },
  });
}
