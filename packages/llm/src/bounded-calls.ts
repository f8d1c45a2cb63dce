import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { ChatGenerationChunk, ChatResult } from "@langchain/core/outputs";
import { isSwitchboardError, sleep } from "@switchboard/common";
import type { LlmProvider } from "./env.js";
import {
  classifyFailure,
  failureError,
  filteredError,
  filteredReason,
  isRetryable,
  type ProviderFailure,
  timeoutError,
  waitTooLongError,
} from "./failures.js";

/** How long a model call may take and how often it is retried (LLM_TIMEOUT_SECONDS, LLM_MAX_RETRIES). */
export interface CallBounds {
  provider: LlmProvider;
  modelName: string;
  /** The most one model call may take, its retries and their waits included. */
  timeoutMs: number;
  /** Further attempts after a rate limit, an overload or a provider error. */
  maxRetries: number;
}

/** Marks a call already inside the bounds, so a provider whose _generate streams is not retried twice. */
const INSIDE = Symbol("switchboard.bounded");

type Options = BaseChatModel["ParsedCallOptions"] & { [INSIDE]?: true };

/** Exponential backoff with jitter when the provider names no wait: 0.5 s, 1 s, 2 s … at most 8 s. */
function backoffMs(attempt: number): number {
  return Math.min(8_000, 500 * 2 ** attempt) * (0.75 + Math.random() * 0.5);
}

/** One call's attempts: the time it has left, and what to do after a failed attempt. */
class Attempts {
  private readonly deadline: number;
  retried = 0;

  constructor(
    private readonly bounds: CallBounds,
    private readonly outer: AbortSignal | undefined,
  ) {
    this.deadline = performance.now() + bounds.timeoutMs;
  }

  /** The signal for the next attempt: the caller's, and the time the call has left. */
  signal(): { signal: AbortSignal; timedOut: () => boolean } {
    const left = this.deadline - performance.now();
    if (left <= 0) throw timeoutError(this.bounds.provider, this.bounds.timeoutMs);
    const timer = AbortSignal.timeout(Math.ceil(left));
    const signal = this.outer ? AbortSignal.any([this.outer, timer]) : timer;
    return { signal, timedOut: () => timer.aborted && !this.outer?.aborted };
  }

  /**
   * After a failed attempt: resolves when it is worth another (having waited as the provider asked),
   * else throws the turn-ending error that says what to change.
   */
  async retryAfter(error: unknown, timedOut: boolean): Promise<void> {
    if (this.outer?.aborted) throw error;
    if (timedOut) throw timeoutError(this.bounds.provider, this.bounds.timeoutMs);
    if (isSwitchboardError(error)) throw error;
    const failure = classifyFailure(error);
    if (!isRetryable(failure) || this.retried >= this.bounds.maxRetries) throw this.final(failure);
    const wait = failure.retryAfterMs ?? backoffMs(this.retried);
    if (performance.now() + wait >= this.deadline) {
      throw failure.retryAfterMs === undefined
        ? this.final(failure)
        : waitTooLongError(this.bounds.provider, failure, failure.retryAfterMs);
    }
    this.retried += 1;
    await sleep(Math.ceil(wait), this.outer);
  }

  private final(failure: ProviderFailure) {
    return failureError(this.bounds.provider, this.bounds.modelName, failure, this.retried);
  }
}

/** The two methods every LangChain chat model implements, which the bounds wrap. */
interface ModelCalls {
  _generate(
    messages: BaseMessage[],
    options: Options,
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult>;
  _streamResponseChunks(
    messages: BaseMessage[],
    options: Options,
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk>;
  withConfig(config: Record<string, unknown>): unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: a mixin's base constructor must take any arguments.
type ChatModelClass = new (...args: any[]) => ModelCalls;

/**
 * The provider's chat model with Switchboard's call bounds: every call within LLM_TIMEOUT_SECONDS,
 * rate limits (429, Anthropic's 529, Bedrock's ThrottlingException), overload and 5xx retried up to
 * LLM_MAX_RETRIES times with backoff that honours the provider's Retry-After, and every failure or
 * refused answer turned into an error that names the provider and the setting to change. One policy
 * for every provider: the SDKs' own retries are off (see chat-model.ts). A streamed call is retried
 * only before its first chunk; after that, a failure ends it.
 */
export function boundedCalls<T extends ChatModelClass>(Base: T, bounds: CallBounds): T {
  class Bounded extends Base {
    /**
     * LangChain's content-block event stream, bridged from the bounded _streamResponseChunks (LangChain's
     * own default), so callbacks that prefer events are not handed the provider's unbounded native one.
     */
    readonly _streamChatModelEvents = BaseChatModel.prototype._streamChatModelEvents;

    /** ChatOpenAI's withConfig builds a plain ChatOpenAI from its fields: keep the bounds on the copy. */
    override withConfig(config: Record<string, unknown>): unknown {
      const made = super.withConfig(config);
      const fields = (this as { fields?: unknown }).fields;
      if (!(made instanceof BaseChatModel) || made instanceof Bounded || fields === undefined) return made;
      const copy = new (this.constructor as new (fields: unknown) => BaseChatModel)(fields);
      type WithDefaults = { defaultOptions: unknown };
      (copy as unknown as WithDefaults).defaultOptions = (made as unknown as WithDefaults).defaultOptions;
      return copy;
    }

    override async _generate(
      messages: BaseMessage[],
      options: Options,
      runManager?: CallbackManagerForLLMRun,
    ): Promise<ChatResult> {
      if (options[INSIDE]) return super._generate(messages, options, runManager);
      const attempts = new Attempts(bounds, options.signal);
      for (;;) {
        const { signal, timedOut } = attempts.signal();
        try {
          const result = await super._generate(messages, { ...options, signal, [INSIDE]: true }, runManager);
          const generation = result.generations[0];
          const reason =
            filteredReason(generation?.message.response_metadata) ??
            filteredReason(generation?.generationInfo);
          if (reason) throw filteredError(bounds.provider, reason);
          return result;
        } catch (error) {
          await attempts.retryAfter(asFiltered(error, bounds.provider), timedOut());
        }
      }
    }

    override async *_streamResponseChunks(
      messages: BaseMessage[],
      options: Options,
      runManager?: CallbackManagerForLLMRun,
    ): AsyncGenerator<ChatGenerationChunk> {
      if (options[INSIDE]) {
        yield* super._streamResponseChunks(messages, options, runManager);
        return;
      }
      const attempts = new Attempts(bounds, options.signal);
      for (;;) {
        const { signal, timedOut } = attempts.signal();
        let started = false;
        let reason: string | undefined;
        try {
          const inner = { ...options, signal, [INSIDE]: true as const };
          for await (const chunk of super._streamResponseChunks(messages, inner, runManager)) {
            started = true;
            reason ??=
              filteredReason(chunk.message.response_metadata) ??
              filteredReason(chunk.generationInfo) ??
              filteredReason(chunk.message.additional_kwargs);
            yield chunk;
          }
        } catch (error) {
          const failure = asFiltered(error, bounds.provider);
          if (!started) {
            await attempts.retryAfter(failure, timedOut());
            continue;
          }
          if (isSwitchboardError(failure) || options.signal?.aborted) throw failure;
          if (timedOut()) throw timeoutError(bounds.provider, bounds.timeoutMs);
          throw failureError(bounds.provider, bounds.modelName, classifyFailure(failure), attempts.retried);
        }
        if (reason) throw filteredError(bounds.provider, reason);
        return;
      }
    }
  }
  return Bounded as T;
}

/**
 * Gemini's client throws when the prompt was blocked (PromptBlockedError, with its blockReason) or a
 * blocked candidate has no content (EmptyContentError, with its finishReason): a filtered answer.
 */
function asFiltered(error: unknown, provider: LlmProvider): unknown {
  const e = error as { name?: unknown; finishReason?: unknown; blockReason?: unknown } | undefined;
  if (e?.name !== "EmptyContentError" && e?.name !== "PromptBlockedError") return error;
  if (typeof e.finishReason === "string")
    return filteredReason({ finishReason: e.finishReason })
      ? filteredError(provider, `finishReason: ${e.finishReason}`)
      : error;
  if (typeof e.blockReason === "string") return filteredError(provider, `blockReason: ${e.blockReason}`);
  return error;
}
