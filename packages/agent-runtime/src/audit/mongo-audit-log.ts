import type { Collection, Db, Filter } from "mongodb";
import { type AuditFilter, type AuditLog, DEFAULT_AUDIT_LIMIT } from "./audit-log.js";
import { chained } from "./chain.js";
import type { AuditEntry, ChainedEntry } from "./entry.js";
import type { AuditKey } from "./key.js";

interface AuditDocument extends ChainedEntry {
  /** The sequence number: unique, so two replicas can never write the same place in the chain. */
  _id: number;
  /** When retention is on: MongoDB's TTL monitor removes the line after this. */
  expire_at?: Date;
}

/** Tries a replica makes when others append at the same moment, before it gives up. */
const APPEND_TRIES = 20;

/** The TTL index AUDIT_RETENTION_DAYS asks for: each line carries its own expiry time. */
export const RETENTION_INDEX = "retention";

/**
 * `audit_<agent>`: one document per line, `_id` its sequence number. A line is appended after the
 * newest one; a replica that lost the race for that number (duplicate key) reads again and retries,
 * so every replica writes one chain without transactions. The agent only ever inserts (one insert a
 * line, after one indexed read of the newest); the link is computed here, under the agent's key.
 */
export class MongoAuditLog implements AuditLog {
  private constructor(
    private readonly collection: Collection<AuditDocument>,
    private readonly retentionMs: number | undefined,
    private readonly key: AuditKey | undefined,
  ) {}

  static async create(
    db: Db,
    collection: string,
    options: { retentionDays?: number; key?: AuditKey } = {},
  ): Promise<MongoAuditLog> {
    const { retentionDays, key } = options;
    const lines = db.collection<AuditDocument>(collection);
    await lines.createIndex({ "principal.subject": 1, _id: -1 }, { name: "subject_seq" });
    if (retentionDays)
      await lines.createIndex({ expire_at: 1 }, { name: RETENTION_INDEX, expireAfterSeconds: 0 });
    // Retention turned off: lines are kept for good, as the verifier is then told.
    else if (await lines.indexExists(RETENTION_INDEX).catch(() => false))
      await lines.dropIndex(RETENTION_INDEX);
    return new MongoAuditLog(lines, retentionDays ? retentionDays * 86_400_000 : undefined, key);
  }

  async append(entry: AuditEntry): Promise<ChainedEntry> {
    for (let attempt = 0; ; attempt++) {
      const last = await this.collection
        .find({}, { sort: { _id: -1 }, limit: 1, projection: { hash: 1 } })
        .next();
      const seq = (last?._id ?? 0) + 1;
      const line = chained(seq, last?.hash ?? "", entry, this.key);
      const expire = this.retentionMs ? { expire_at: new Date(Date.parse(entry.at) + this.retentionMs) } : {};
      try {
        await this.collection.insertOne({ _id: seq, ...line, ...expire });
        return line;
      } catch (error) {
        if ((error as { code?: number }).code !== 11000 || attempt + 1 >= APPEND_TRIES) throw error;
      }
    }
  }

  async read(filter: AuditFilter): Promise<ChainedEntry[]> {
    const query: Filter<AuditDocument> = {};
    if (filter.subject) query["principal.subject"] = filter.subject;
    if (filter.since || filter.until) {
      query.at = {
        ...(filter.since ? { $gte: filter.since.toISOString() } : {}),
        ...(filter.until ? { $lte: filter.until.toISOString() } : {}),
      };
    }
    const newest = await this.collection
      .find(query, {
        sort: { _id: -1 },
        limit: filter.limit ?? DEFAULT_AUDIT_LIMIT,
        projection: { expire_at: 0 },
      })
      .toArray();
    return newest.reverse().map(({ _id, ...line }) => line);
  }

  /** Every line in order, for verification. */
  async *all(): AsyncGenerator<ChainedEntry> {
    for await (const { _id, expire_at: _expire, ...line } of this.collection.find({}, { sort: { _id: 1 } })) {
      yield line;
    }
  }
}
