import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { Logger } from "@switchboard/common";
import type { MemoryBook } from "./memory-book.js";

/** Starts every extraction request, so the model (and a test) can tell it from a turn. */
export const EXTRACTION_PROMPT = `You extract lasting facts about the user from one exchange with a platform-engineering assistant.
Keep only what will still be true and useful in later conversations: their team, projects, repositories, regions, naming conventions, preferences.
Never include passwords, tokens, keys or any other secret; never include one-off requests or the assistant's findings.
Answer with JSON only: {"facts": [{"topic": "<2-4 words naming what it is about>", "fact": "<one sentence>"}]}, or {"facts": []}.`;

/** Extractions waiting beyond this are dropped (a burst of turns must not grow memory without end). */
const MAX_QUEUED = 100;

/**
 * Facts extracted after a turn (ENABLE_FACT_EXTRACTION): queued and run one at a time after the
 * answer has gone, so a turn never waits for them. Each fact goes through MemoryBook.remember, so a
 * secret is refused and a known topic is updated rather than added again.
 */
export class FactExtractor {
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;

  constructor(
    private readonly book: MemoryBook,
    private readonly model: BaseChatModel,
    private readonly logger: Logger,
  ) {}

  schedule(owner: string, message: string, answer: string): void {
    if (this.queued >= MAX_QUEUED) return;
    this.queued += 1;
    this.queue = this.queue
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => this.extract(owner, message, answer))
      .catch((error: unknown) => this.logger.warn({ err: error }, "fact extraction failed"))
      .finally(() => {
        this.queued -= 1;
      });
  }

  /** Resolves once every scheduled extraction has run (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue;
  }

  private async extract(owner: string, message: string, answer: string): Promise<void> {
    const reply = await this.model.invoke([
      new SystemMessage(EXTRACTION_PROMPT),
      new HumanMessage(`User: ${message}\n\nAssistant: ${answer}`),
    ]);
    const text = typeof reply.content === "string" ? reply.content : JSON.stringify(reply.content);
    let refused = 0;
    for (const { topic, fact } of factsIn(text)) {
      const result = await this.book.remember(owner, fact, topic, "extracted");
      if (result.status === "refused") refused += 1;
    }
    // Never the refused text itself: it may be the secret.
    if (refused > 0) this.logger.info({ refused }, "extracted facts refused (secrets or too long)");
  }
}

function factsIn(text: string): Array<{ topic: string; fact: string }> {
  const json = /\{[\s\S]*\}/.exec(text)?.[0];
  if (!json) return [];
  try {
    const parsed = JSON.parse(json) as { facts?: unknown };
    if (!Array.isArray(parsed.facts)) return [];
    return parsed.facts.flatMap((entry) => {
      const { topic, fact } = (entry ?? {}) as { topic?: unknown; fact?: unknown };
      return typeof fact === "string" && fact.trim()
        ? [{ topic: typeof topic === "string" ? topic : fact, fact }]
        : [];
    });
  } catch {
    return [];
  }
}
