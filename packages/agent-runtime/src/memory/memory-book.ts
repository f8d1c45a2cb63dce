import { createHash, randomUUID } from "node:crypto";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { BaseStore, Item } from "@langchain/langgraph";
import type { Logger } from "@switchboard/common";
import { LRUCache } from "lru-cache";
import { memoryNamespace } from "./owner.js";
import { cosine, estimateTokens, termsOf, textScore } from "./relevance.js";
import { findSecret } from "./secret-scan.js";

/** One memory as stored (the store item's value). */
interface MemoryValue {
  text: string;
  /** What it is about ("jira project"): a newer memory on the same topic replaces the older. */
  topic: string;
  source: "user" | "extracted";
  /** When it last joined a model's context for a message it was relevant to (or was written). */
  usedAt: number;
  embedding?: number[];
}

/** A memory as the user sees it (GET /memories). */
export interface Memory {
  id: string;
  text: string;
  topic: string;
  source: "user" | "extracted";
  createdAt: string;
  updatedAt: string;
  usedAt: string;
}

export type Remembered = { status: "stored" | "updated"; id: string } | { status: "refused"; reason: string };

/** The memories that join one turn's model context. */
export interface Recalled {
  texts: string[];
  /** Tokens (estimated) of the rendered block. */
  tokens: number;
}

/** The longest memory kept, in characters: a memory is a fact, not a document. */
export const MAX_MEMORY_CHARS = 500;

const CONTEXT_HEADING =
  "What this user asked you to remember in earlier conversations (use it when relevant; never repeat it unprompted):";

/** How many recalled memories get their expiry pushed back per turn (the relevant ones). */
const REFRESHED_PER_TURN = 20;

export interface MemoryBookOptions {
  store: BaseStore;
  /** The store's revision of a namespace (see @switchboard/utils' StoreHandle): recall then reads a user's memories again only when they changed. */
  revision?: (namespace: string[]) => Promise<string>;
  maxPerUser: number;
  embeddings?: EmbeddingsInterface;
  logger: Logger;
}

/**
 * One agent's memories, per owner (see owner.ts), on LangGraph's BaseStore: remembered (secrets
 * refused, one memory per topic), recalled into a token budget, listed and erased. Reads of an
 * owner are bounded by the per-user cap; past it, the least recently used go first.
 */
export class MemoryBook {
  /** Users' memories as last read, with their words, by owner; checked against the store's revision each turn. */
  private readonly recent = new LRUCache<string, { revision: string; entries: Entry[] }>({
    max: CACHED_OWNERS,
  });

  constructor(private readonly options: MemoryBookOptions) {}

  async remember(owner: string, text: string, topic: string, source: Memory["source"]): Promise<Remembered> {
    const fact = text.trim().replace(/\s+/g, " ");
    if (!fact) return { status: "refused", reason: "There is nothing to remember: the text is empty." };
    if (fact.length > MAX_MEMORY_CHARS) {
      return {
        status: "refused",
        reason: `A memory holds at most ${MAX_MEMORY_CHARS} characters (this one has ${fact.length}): keep the fact itself.`,
      };
    }
    const secret = (await findSecret(fact)) ?? (await findSecret(topic));
    if (secret) {
      return {
        status: "refused",
        reason: `Not remembered: it contains ${secret}. Secrets are never stored in memory; link a token for the agent instead.`,
      };
    }
    const namespace = memoryNamespace(owner);
    const label = (topic.trim() || fact).toLowerCase().replace(/\s+/g, " ");
    const existing = await this.all(owner);
    // Same topic, or the same words under another topic: updated, not piled up.
    const same = existing.find(
      (item) =>
        (item.value as MemoryValue).topic.toLowerCase() === label ||
        normalized((item.value as MemoryValue).text) === normalized(fact),
    );
    const id = same?.key ?? keyFor(`${owner}/${label}`);
    const value: MemoryValue = { text: fact, topic: label, source, usedAt: Date.now() };
    if (this.options.embeddings) value.embedding = (await this.options.embeddings.embedDocuments([fact]))[0];
    await this.options.store.put(namespace, id, value as unknown as Record<string, unknown>);
    if (!same && existing.length + 1 > this.options.maxPerUser) {
      const oldest = existing
        .slice()
        .sort((a, b) => (a.value as MemoryValue).usedAt - (b.value as MemoryValue).usedAt)
        .slice(0, existing.length + 1 - this.options.maxPerUser);
      await this.options.store.batch(oldest.map((item) => ({ namespace, key: item.key, value: null })));
    }
    return { status: same ? "updated" : "stored", id };
  }

  async list(owner: string): Promise<Memory[]> {
    const items = await this.all(owner);
    return items
      .map((item) => {
        const value = item.value as MemoryValue;
        return {
          id: item.key,
          text: value.text,
          topic: value.topic,
          source: value.source,
          createdAt: new Date(item.createdAt).toISOString(),
          updatedAt: new Date(item.updatedAt).toISOString(),
          usedAt: new Date(value.usedAt).toISOString(),
        };
      })
      .sort((a, b) => b.usedAt.localeCompare(a.usedAt));
  }

  /** Erases one memory of the owner; false when they have none by that id. */
  async forget(owner: string, id: string): Promise<boolean> {
    const namespace = memoryNamespace(owner);
    if (!(await this.options.store.get(namespace, id))) return false;
    await this.options.store.delete(namespace, id);
    return true;
  }

  /** Erases all the owner's memories; how many there were. */
  async forgetAll(owner: string): Promise<number> {
    const namespace = memoryNamespace(owner);
    let erased = 0;
    for (;;) {
      const items = await this.all(owner);
      if (items.length === 0) return erased;
      await this.options.store.batch(items.map((item) => ({ namespace, key: item.key, value: null })));
      erased += items.length;
    }
  }

  /**
   * The owner's memories for a message, most relevant first, then the most recently used, as many
   * as fit `budgetTokens`. The relevant ones count as used: their expiry is pushed back (after the
   * turn has them, never delaying it).
   */
  async recall(owner: string, message: string, budgetTokens: number): Promise<Recalled> {
    if (budgetTokens <= 0) return { texts: [], tokens: 0 };
    const entries = await this.entries(owner);
    if (entries.length === 0) return { texts: [], tokens: 0 };
    const queryVector =
      this.options.embeddings && entries.some(({ value }) => value.embedding)
        ? await this.options.embeddings.embedQuery(message)
        : undefined;
    const query = termsOf(message);
    const scored = entries.map(({ item, value, terms }) => {
      const score =
        queryVector && value.embedding ? cosine(queryVector, value.embedding) : textScore(query, terms);
      return { item, value, score };
    });
    scored.sort((a, b) => b.score - a.score || b.value.usedAt - a.value.usedAt);
    const texts: string[] = [];
    const used: typeof scored = [];
    let tokens = estimateTokens(CONTEXT_HEADING);
    for (const entry of scored) {
      const cost = estimateTokens(`- ${entry.value.text}\n`);
      if (tokens + cost > budgetTokens) continue;
      texts.push(entry.value.text);
      tokens += cost;
      if (entry.score > 0 && used.length < REFRESHED_PER_TURN) used.push(entry);
    }
    if (texts.length === 0) return { texts: [], tokens: 0 };
    void this.markUsed(owner, used).catch((error: unknown) =>
      this.options.logger.warn({ err: error }, "could not mark recalled memories as used"),
    );
    return { texts, tokens };
  }

  /**
   * A recalled set as one block of the model's context: the most relevant memories that fit
   * `roomTokens` (what the conversation leaves of the budget in this model call).
   */
  static render(recalled: Recalled, roomTokens = Number.POSITIVE_INFINITY): string | undefined {
    const lines: string[] = [];
    let tokens = estimateTokens(CONTEXT_HEADING);
    for (const text of recalled.texts) {
      const cost = estimateTokens(`- ${text}\n`);
      if (tokens + cost > roomTokens) break;
      lines.push(`- ${text}`);
      tokens += cost;
    }
    return lines.length > 0 ? `${CONTEXT_HEADING}\n${lines.join("\n")}` : undefined;
  }

  private async markUsed(owner: string, used: Array<{ item: Item; value: MemoryValue }>): Promise<void> {
    if (used.length === 0) return;
    const namespace = memoryNamespace(owner);
    const now = Date.now();
    const cached = this.recent.get(owner);
    // A put rewrites the item's expiry (MongoDBStore sets expiresAt on every write).
    await this.options.store.batch(
      used.map(({ item, value }) => ({
        namespace,
        key: item.key,
        value: { ...value, usedAt: now } as unknown as Record<string, unknown>,
      })),
    );
    // Our own write need not send the next turn back to the store: the cached copy is brought up to
    // date, unless the count moved meanwhile (another replica added or erased one: read again).
    if (!cached || !this.options.revision) return;
    const revision = await this.options.revision(namespace);
    if (countOf(revision) !== countOf(cached.revision)) return;
    for (const { value } of used) value.usedAt = now;
    this.recent.set(owner, { revision, entries: cached.entries });
  }

  /** The owner's memories with their words, from the cache while the store's revision is unchanged. */
  private async entries(owner: string): Promise<Entry[]> {
    const { revision } = this.options;
    if (!revision) return (await this.all(owner)).map(entryOf);
    const current = await revision(memoryNamespace(owner));
    const cached = this.recent.get(owner);
    if (cached?.revision === current) return cached.entries;
    const entries = (await this.all(owner)).map(entryOf);
    this.recent.set(owner, { revision: current, entries });
    return entries;
  }

  /** Every memory of the owner, bounded by the per-user cap (and a margin for writes racing it). */
  private all(owner: string): Promise<Item[]> {
    return this.options.store.search(memoryNamespace(owner), { limit: this.options.maxPerUser + 100 });
  }
}

/** How many users' memories one agent keeps read (the most recently active). */
const CACHED_OWNERS = 200;

interface Entry {
  item: Item;
  value: MemoryValue;
  terms: Set<string>;
}

function entryOf(item: Item): Entry {
  const value = item.value as MemoryValue;
  return { item, value, terms: termsOf(value.text) };
}

function countOf(revision: string): string {
  return revision.split(":")[0] ?? "";
}

function normalized(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

function keyFor(label: string): string {
  return createHash("sha256").update(label).digest("hex").slice(0, 24) || randomUUID();
}
