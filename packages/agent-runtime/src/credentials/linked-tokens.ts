import { SwitchboardError } from "@switchboard/common";
import { collectionsFor } from "@switchboard/contract";
import type { Collection, Db } from "mongodb";
import { subjectKey } from "../auth/caller.js";
import { open, seal } from "./sealing.js";

/** The vendor an agent takes users' own tokens for (its `AgentDefinition.linkedTokens`). */
export interface LinkableVendor {
  /** The vendor client's code (`github`): the path segment of /linked-tokens/<vendor>. */
  vendor: string;
  /** As people name it: "GitHub". */
  title: string;
  /** What token to link, shown beside the field: "a personal access token (classic or fine-grained)". */
  hint: string;
}

/** A linked token as its owner sees it: which vendor, since when; never the token. */
export interface LinkedTokenSummary {
  vendor: string;
  title: string;
  linkedAt: string;
}

interface TokenDocument {
  /** `<subject key>:<vendor>`; `key-check` for the key's own record. */
  _id: string;
  subject?: string;
  vendor?: string;
  sealed: string;
  linked_at?: Date;
}

/** The key-check record: a known value sealed with the key, so a changed key fails at start-up. */
const KEY_CHECK_ID = "key-check";
const KEY_CHECK_TEXT = "switchboard linked tokens";
/** Longer than any vendor's token; bounds what one request may store. */
const MAX_TOKEN_CHARS = 4096;

/** Where the records are: `linked_tokens_<agent>` in MongoDB, or a map with the memory backend. */
interface TokenRecords {
  get(id: string): Promise<TokenDocument | undefined>;
  put(doc: TokenDocument): Promise<void>;
  /** Inserts unless a record with this id exists; returns the record stored. */
  putIfAbsent(doc: TokenDocument): Promise<TokenDocument>;
  delete(id: string): Promise<boolean>;
}

/**
 * The tokens users linked for this agent's vendor, one per user, sealed (AES-256-GCM, see
 * sealing.ts) under CREDENTIALS_ENCRYPTION_KEY with the record's identity (agent, subject key,
 * vendor) as authenticated data. Keyed by the subject's hash as threads are, so the collection holds
 * neither the subject nor the token in the clear; the token is opened only for that user's call.
 */
export class LinkedTokens {
  private constructor(
    readonly agent: string,
    readonly vendor: LinkableVendor,
    private readonly key: Buffer,
    private readonly records: TokenRecords,
  ) {}

  /**
   * Opens the store; a key that does not open the key-check record (the tokens were sealed with
   * another key) is a start-up error, never a silent loss of every user's link.
   */
  static async open(
    db: Db | undefined,
    agent: string,
    vendor: LinkableVendor,
    key: Buffer,
  ): Promise<LinkedTokens> {
    const name = collectionsFor(agent).linkedTokens;
    const records = db ? mongoRecords(db.collection<TokenDocument>(name)) : memoryRecords();
    const check = await records.putIfAbsent({
      _id: KEY_CHECK_ID,
      sealed: seal(key, KEY_CHECK_TEXT, keyContext(agent)),
    });
    let opened: string | undefined;
    try {
      opened = open(key, check.sealed, keyContext(agent));
    } catch {
      opened = undefined;
    }
    if (opened !== KEY_CHECK_TEXT) {
      throw new SwitchboardError(
        "credentials.key",
        "user",
        `CREDENTIALS_ENCRYPTION_KEY is not the key the tokens in ${name} were sealed with: set the key they were linked under, or (to start over, users linking again) delete the ${name} collection.`,
      );
    }
    return new LinkedTokens(agent, vendor, key, records);
  }

  async link(subject: string, token: string): Promise<LinkedTokenSummary> {
    const value = checkedToken(token, this.vendor);
    const id = recordId(subject, this.vendor.vendor);
    const linkedAt = new Date();
    await this.records.put({
      _id: id,
      subject: subjectKey(subject),
      vendor: this.vendor.vendor,
      sealed: seal(this.key, value, this.context(id)),
      linked_at: linkedAt,
    });
    return this.summary(linkedAt);
  }

  async list(subject: string): Promise<LinkedTokenSummary[]> {
    const doc = await this.records.get(recordId(subject, this.vendor.vendor));
    return doc?.linked_at ? [this.summary(doc.linked_at)] : [];
  }

  async unlink(subject: string): Promise<boolean> {
    return this.records.delete(recordId(subject, this.vendor.vendor));
  }

  /** The user's token, opened for their call; undefined when they linked none. */
  async tokenFor(subject: string): Promise<string | undefined> {
    const id = recordId(subject, this.vendor.vendor);
    const doc = await this.records.get(id);
    return doc ? open(this.key, doc.sealed, this.context(id)) : undefined;
  }

  private context(id: string): string {
    return `${collectionsFor(this.agent).linkedTokens}/${id}`;
  }

  private summary(linkedAt: Date): LinkedTokenSummary {
    return { vendor: this.vendor.vendor, title: this.vendor.title, linkedAt: linkedAt.toISOString() };
  }
}

function recordId(subject: string, vendor: string): string {
  return `${subjectKey(subject)}:${vendor}`;
}

function keyContext(agent: string): string {
  return `${collectionsFor(agent).linkedTokens}/${KEY_CHECK_ID}`;
}

/** A token as sent: trimmed, one line, bounded. The message never repeats what was sent. */
function checkedToken(token: unknown, vendor: LinkableVendor): string {
  const value = typeof token === "string" ? token.trim() : "";
  const problem = !value
    ? "is empty"
    : value.length > MAX_TOKEN_CHARS
      ? `is longer than ${MAX_TOKEN_CHARS} characters`
      : /[\s\p{Cc}]/u.test(value)
        ? "contains spaces or control characters"
        : undefined;
  if (!problem) return value;
  throw new SwitchboardError(
    "credentials.token",
    "user",
    `The ${vendor.title} token ${problem}: send {"token": "<${vendor.hint}>"}.`,
  );
}

function mongoRecords(collection: Collection<TokenDocument>): TokenRecords {
  return {
    get: async (id) => (await collection.findOne({ _id: id })) ?? undefined,
    put: async (doc) => {
      await collection.replaceOne({ _id: doc._id }, doc, { upsert: true });
    },
    putIfAbsent: async (doc) => {
      // Replicas starting together: the first insert wins and every one checks against it.
      await collection.updateOne(
        { _id: doc._id },
        { $setOnInsert: { sealed: doc.sealed } },
        { upsert: true },
      );
      return (await collection.findOne({ _id: doc._id })) ?? doc;
    },
    delete: async (id) => (await collection.deleteOne({ _id: id })).deletedCount > 0,
  };
}

function memoryRecords(): TokenRecords {
  const docs = new Map<string, TokenDocument>();
  return {
    get: async (id) => docs.get(id),
    put: async (doc) => {
      docs.set(doc._id, doc);
    },
    putIfAbsent: async (doc) => {
      if (!docs.has(doc._id)) docs.set(doc._id, doc);
      return docs.get(doc._id) ?? doc;
    },
    delete: async (id) => docs.delete(id),
  };
}
