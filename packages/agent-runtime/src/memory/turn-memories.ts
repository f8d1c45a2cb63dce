import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { Logger } from "@switchboard/common";
import { countTokensApproximately, createMiddleware } from "langchain";
import { type TurnContext, turnOf } from "../context/turn-context.js";
import type { AgentTool } from "../tools/define-tool.js";
import type { FactExtractor } from "./fact-extraction.js";
import { MemoryBook, type Recalled } from "./memory-book.js";
import { ownerOfPrincipal } from "./owner.js";

/**
 * Long-term memory as a turn uses it: the caller's memories relevant to the message, recalled once
 * per turn into the share of MAX_CONTEXT_TOKENS memory has, for the model's system prompt (never
 * the checkpoint) and for the hops a supervisor makes; the `remember` tool; and, when on, facts
 * extracted after the answer. An agent with a graph of its own gets this in its GraphDeps.
 */
export interface TurnMemories {
  /** `remember`, for the agent's model. */
  readonly tools: AgentTool[];
  /**
   * The memory block for `turn`'s message (recalled once per turn, or taken from its prefetch), cut
   * to `roomTokens`: what the conversation leaves of MAX_CONTEXT_TOKENS in this model call. None
   * outside a turn.
   */
  contextFor(
    turn: TurnContext | undefined,
    message: string,
    roomTokens?: number,
  ): Promise<string | undefined>;
  /**
   * Starts `turn`'s recall for its message now, without waiting: the executor calls it as the turn
   * begins, so the read overlaps the conversation's; contextFor for the same message then awaits
   * the same recall.
   */
  prefetch(turn: TurnContext, message: string): void;
  /** The block already recalled in `turn`, for a hop to pass on; undefined if none. */
  recalledInTurn(turn: TurnContext): string | undefined;
  /** After `turn`'s answer: facts extracted in the background when ENABLE_FACT_EXTRACTION is on. */
  afterAnswer(turn: TurnContext | undefined, message: string, answer: string): void;
}

export function turnMemories(
  book: MemoryBook,
  tools: AgentTool[],
  budgetTokens: number,
  extractor: FactExtractor | undefined,
  logger: Logger,
): TurnMemories {
  // Keyed by the turn's own context object: gone with the turn.
  const recalls = new WeakMap<object, { message: string; recall: Promise<Recalled> }>();
  const recalled = new WeakMap<object, string | undefined>();
  /** The turn's recall for `message`: read once, or again if the turn asks for another message. */
  const recallIn = (turn: TurnContext, message: string): Promise<Recalled> => {
    const known = recalls.get(turn);
    if (known?.message === message) return known.recall;
    const recall = book
      .recall(ownerOfPrincipal(turn.principal), message, budgetTokens)
      .catch((error: unknown) => {
        // A turn goes on without its memories rather than failing.
        logger.warn({ err: error }, "could not recall memories for this turn");
        return { texts: [], tokens: 0 };
      });
    recalls.set(turn, { message, recall });
    return recall;
  };
  return {
    tools,
    prefetch(turn, message) {
      void recallIn(turn, message);
    },
    async contextFor(turn, message, roomTokens = budgetTokens) {
      if (!turn) return undefined;
      const text = MemoryBook.render(await recallIn(turn, message), Math.min(roomTokens, budgetTokens));
      recalled.set(turn, text);
      return text;
    },
    recalledInTurn(turn) {
      return recalled.get(turn);
    },
    afterAnswer(turn, message, answer) {
      if (!extractor || !turn || !message.trim() || !answer.trim()) return;
      extractor.schedule(ownerOfPrincipal(turn.principal), message, answer);
    },
  };
}

/** The newest thing the user said, which memories are recalled for. */
export function lastUserText(messages: BaseMessage[]): string {
  const last = messages.findLast((message) => HumanMessage.isInstance(message));
  return last ? textOf(last) : "";
}

/**
 * For `createAgent`: the recalled memories appended to the system prompt of each model call (the
 * stored conversation never holds them), and a final answer handed on for fact extraction.
 */
export function memoryMiddleware(memories: TurnMemories, maxContextTokens: number | undefined) {
  return createMiddleware({
    name: "SwitchboardMemory",
    wrapModelCall: async (request, handler) => {
      const turn = turnOf(request.runtime);
      const message = lastUserText(request.messages);
      const block = await memories.contextFor(
        turn,
        message,
        roomLeft(maxContextTokens, [new SystemMessage(request.systemPrompt ?? ""), ...request.messages]),
      );
      // What a supervisor passed on with this hop goes with the user's message, in this call only.
      const passed = turn?.passedOnMemories;
      const sent = passed ? { ...request, messages: withPassedOn(request.messages, passed) } : request;
      const answer = await handler(
        block ? { ...sent, systemPrompt: `${request.systemPrompt ?? ""}\n\n${block}`.trim() } : sent,
      );
      if (AIMessage.isInstance(answer) && (answer.tool_calls?.length ?? 0) === 0) {
        memories.afterAnswer(turn, message, textOf(answer));
      }
      return answer;
    },
  });
}

/**
 * The messages with the memories a supervisor passed on (memory/passed-on.ts) after the newest user
 * message's text, where a hop used to write them: the user's words, with the user's authority (never
 * the system prompt's), in a copy for this model call, so the checkpoint never holds them.
 */
function withPassedOn(messages: BaseMessage[], passed: string): BaseMessage[] {
  const index = messages.findLastIndex((message) => HumanMessage.isInstance(message));
  const last = messages[index];
  if (!last) return messages;
  const copy = new HumanMessage({ content: `${textOf(last)}\n\n${passed}`, id: last.id });
  return [...messages.slice(0, index), copy, ...messages.slice(index + 1)];
}

/** What `sent` leaves of MAX_CONTEXT_TOKENS (unbounded when the conversation is sent whole). */
export function roomLeft(maxContextTokens: number | undefined, sent: BaseMessage[]): number {
  if (maxContextTokens === undefined) return Number.POSITIVE_INFINITY;
  return Math.max(0, maxContextTokens - countTokensApproximately(sent));
}

function textOf(message: BaseMessage): string {
  const { content } = message;
  if (typeof content === "string") return content;
  return content
    .map((block) => (block.type === "text" && typeof block.text === "string" ? block.text : ""))
    .join("");
}
