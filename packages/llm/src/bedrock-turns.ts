import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import type { ChatGenerationChunk, ChatResult } from "@langchain/core/outputs";

/**
 * Consecutive user messages as one: Bedrock's Converse refuses two user turns in a row (ValidationException
 * "A conversation must alternate between user and assistant roles"), and LangChain's converter joins only
 * tool results. A summarized conversation is such a case: the summary, then the newest user message.
 */
export function alternatingTurns(messages: BaseMessage[]): BaseMessage[] {
  const out: BaseMessage[] = [];
  for (const message of messages) {
    const last = out.at(-1);
    if (last && HumanMessage.isInstance(last) && HumanMessage.isInstance(message)) {
      out[out.length - 1] = new HumanMessage({ content: [...blocks(last), ...blocks(message)] });
    } else {
      out.push(message);
    }
  }
  return out;
}

function blocks(message: BaseMessage) {
  return typeof message.content === "string"
    ? [{ type: "text" as const, text: message.content }]
    : message.content;
}

interface ModelCalls {
  _generate(
    messages: BaseMessage[],
    options: unknown,
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult>;
  _streamResponseChunks(
    messages: BaseMessage[],
    options: unknown,
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk>;
}

// biome-ignore lint/suspicious/noExplicitAny: a mixin's base constructor must take any arguments.
type ChatModelClass = new (...args: any[]) => ModelCalls;

/** ChatBedrockConverse sending {@link alternatingTurns}. */
export function withAlternatingTurns<T extends ChatModelClass>(Base: T): T {
  class Alternating extends Base {
    override _generate(
      messages: BaseMessage[],
      options: unknown,
      runManager?: CallbackManagerForLLMRun,
    ): Promise<ChatResult> {
      return super._generate(alternatingTurns(messages), options, runManager);
    }

    override _streamResponseChunks(
      messages: BaseMessage[],
      options: unknown,
      runManager?: CallbackManagerForLLMRun,
    ): AsyncGenerator<ChatGenerationChunk> {
      return super._streamResponseChunks(alternatingTurns(messages), options, runManager);
    }
  }
  return Alternating as T;
}
